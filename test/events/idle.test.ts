import { afterAll, beforeAll, expect, test } from "bun:test";
import { ApiClient } from "../helpers/client";
import { OWNER, login, ok, startInitializedServer, type Person } from "../helpers/seed";
import type { TestServer } from "../helpers/server";

/**
 * Bun closes a connection idle for 10 s by default; a long-poll is idle until its heartbeat.
 * Bun checks idleness in steps of a few seconds (measured: a default server cuts a pending
 * request at about 12 s), so the heartbeat here is far enough past 10 s to be cut for sure.
 */
const HEARTBEAT_SECONDS = 16;

let server: TestServer;
let owner: Person;

beforeAll(async () => {
  server = await startInitializedServer({ env: { PARLEY_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS) } });
  owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
}, 60_000);
afterAll(() => server.dispose());

test(
  "a long-poll longer than Bun's default idle timeout ends with its heartbeat, not a dropped connection",
  async () => {
    const queueId = ok(await owner.api.post("/register", { fetch_event_types: [] })).queue_id;
    const started = Date.now();
    const body = ok(await owner.api.get("/events", { queue_id: queueId, last_event_id: -1 }));
    expect(body.events).toEqual([{ type: "heartbeat", id: 0 }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(HEARTBEAT_SECONDS * 1000 - 100);
  },
  HEARTBEAT_SECONDS * 1000 + 20_000,
);
