import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../helpers/client";
import { expectError, login, ok, OWNER, startInitializedServer, type Person } from "../helpers/seed";
import type { TestServer } from "../helpers/server";

/**
 * register's idle_queue_timeout (zulip-flutter sends "mobile"): how long a queue may sit
 * unused. Here the server's default is 1 s and the longest a client may ask for 4 s, so the
 * sweep (every 250 ms) shows the difference in seconds; debug logs name each removal.
 */
const DEFAULT_SECONDS = 1;
const MAX_SECONDS = 4;

let server: TestServer;
let owner: Person;

beforeAll(async () => {
  server = await startInitializedServer({
    env: { PARLEY_QUEUE_TIMEOUT_SECONDS: String(DEFAULT_SECONDS), PARLEY_MAX_QUEUE_TIMEOUT_SECONDS: String(MAX_SECONDS), PARLEY_LOG_LEVEL: "debug" },
  });
  owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
}, 60_000);
afterAll(() => server.dispose());

async function registerQueue(params: Record<string, unknown> = {}): Promise<string> {
  return ok(await owner.api.post("/register", { fetch_event_types: [], ...params })).queue_id;
}

const removedIdle = (queueId: string) => server.output.includes(`event queue ${queueId} of user ${owner.id} removed: idle`);

/** Waits until `seconds` after `start`. */
const sleepUntil = (start: number, seconds: number) => Bun.sleep(Math.max(0, start + seconds * 1000 - Date.now()));

const fetchEvents = (queueId: string) => owner.api.get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });

describe("idle_queue_timeout", () => {
  test("a number of seconds is honoured up to the server's cap, \"mobile\" gets the cap, nothing or 0 the default", async () => {
    const start = Date.now();
    const queues = {
      byDefault: await registerQueue(),
      zero: await registerQueue({ idle_queue_timeout: 0 }),
      twoSeconds: await registerQueue({ idle_queue_timeout: 2 }),
      mobile: await registerQueue({ idle_queue_timeout: "mobile" }),
      jsonMobile: await registerQueue({ idle_queue_timeout: '"mobile"' }),
      tooLong: await registerQueue({ idle_queue_timeout: 100_000 }),
    };
    const removed = () => Object.fromEntries(Object.entries(queues).map(([name, id]) => [name, removedIdle(id)]));

    await sleepUntil(start, 1.7);
    expect(removed()).toEqual({ byDefault: true, zero: true, twoSeconds: false, mobile: false, jsonMobile: false, tooLong: false });
    await sleepUntil(start, 3.1);
    expect(removed()).toEqual({ byDefault: true, zero: true, twoSeconds: true, mobile: false, jsonMobile: false, tooLong: false });
    await sleepUntil(start, MAX_SECONDS + 0.9);
    expect(removed()).toEqual({ byDefault: true, zero: true, twoSeconds: true, mobile: true, jsonMobile: true, tooLong: true });
    for (const id of Object.values(queues)) expectError(await fetchEvents(id), "BAD_EVENT_QUEUE_ID", 400);
  }, 20_000);

  test("a queue with a long timeout stays usable while idle past the default, and its idle time restarts with each use", async () => {
    const queue = await registerQueue({ idle_queue_timeout: 3 });
    await Bun.sleep(2_000);
    expect(ok(await fetchEvents(queue)).events).toEqual([]);
    await Bun.sleep(2_000);
    expect(ok(await fetchEvents(queue)).events).toEqual([]);
    expect(removedIdle(queue)).toBe(false);
  }, 20_000);

  test("anything but a whole number of seconds or \"mobile\" is refused, naming the parameter", async () => {
    for (const value of ["-1", "1.5", "abc", "mobilex", "", "1e3", "9999999999999999", "x".repeat(21), "[600]"]) {
      const response = await owner.api.post("/register", { fetch_event_types: [], idle_queue_timeout: value });
      expectError(response, "BAD_REQUEST", 400);
      expect(response.body.msg).toContain("idle_queue_timeout");
    }
  });

  test("each queue keeps its own timeout across a graceful restart", async () => {
    const start = Date.now();
    const long = await registerQueue({ idle_queue_timeout: 3 });
    const short = await registerQueue();
    await server.restart();
    const restarted = Date.now();
    owner = { ...owner, api: new ApiClient(server.url).as(owner.email, owner.apiKey) };
    // Downtime does not count against a queue; idle time since the last use does. A slow
    // restart leaves the short queue most of its second after it, hence the later of the two.
    await Bun.sleep(Math.max(0, Math.max(start + 2_000, restarted + 1_700) - Date.now()));
    expectError(await fetchEvents(short), "BAD_EVENT_QUEUE_ID", 400);
    expect(ok(await fetchEvents(long)).events.map((event: { type: string }) => event.type)).toEqual(["restart"]);
    const used = Date.now();
    await sleepUntil(used, 3.6);
    expect(removedIdle(long)).toBe(true);
    expectError(await fetchEvents(long), "BAD_EVENT_QUEUE_ID", 400);
  }, 30_000);
});
