import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { SEED_TIMEOUT_MS, pending, register } from "./support";

// Short intervals so heartbeats, garbage collection and the event cap show within seconds.
const HEARTBEAT_SECONDS = 1;
const QUEUE_TIMEOUT_SECONDS = 2;
const MAX_EVENTS = 5;

let org: Org;

beforeAll(async () => {
  org = await seedOrg({
    env: { PARLEY_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS), PARLEY_QUEUE_TIMEOUT_SECONDS: String(QUEUE_TIMEOUT_SECONDS), PARLEY_QUEUE_MAX_EVENTS: String(MAX_EVENTS) },
  });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

let enterSends = false;
/** One user_settings event to every queue of `person` registered for user_settings. */
const changeSetting = (person: Person) => person.api.patch("/settings", { enter_sends: (enterSends = !enterSends) }).then(ok);
const settingsQueue = async (person: Person) => (await register(person, { event_types: ["user_settings"], fetch_event_types: [] })).queue_id as string;
const poll = (person: Person, queueId: string, lastEventId = -1) => person.api.get("/events", { queue_id: queueId, last_event_id: lastEventId });

/** A long-poll the test can hang up, as a client closing its connection does. */
function abortablePoll(person: Person, queueId: string, signal: AbortSignal) {
  const url = `${org.server.url}/api/v1/events?queue_id=${queueId}&last_event_id=-1`;
  const authorization = `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}`;
  return fetch(url, { headers: { authorization }, signal }).catch((error: Error) => error);
}

describe("GET /events", () => {
  test("a long-poll waits, and wakes as soon as an event arrives", async () => {
    const queueId = await settingsQueue(org.member);
    const started = Date.now();
    const response = poll(org.member, queueId);
    await Bun.sleep(150);
    await changeSetting(org.member);
    const body = ok(await response);
    expect(body.events).toEqual([{ type: "user_settings", op: "update", property: "enter_sends", value: enterSends, id: expect.any(Number) }]);
    expect(body.events[0].id).toBeGreaterThan(-1);
    expect(body.queue_id).toBe(queueId);
    expect(Date.now() - started).toBeLessThan(HEARTBEAT_SECONDS * 1000);
  });

  test("events stay until acknowledged by last_event_id, and IDs keep increasing", async () => {
    const queueId = await settingsQueue(org.member);
    for (let i = 0; i < 3; i++) await changeSetting(org.member);
    // Increasing, not necessarily consecutive: the counter is shared by all queues.
    const ids = (await pending(org.member, queueId, -1)).map((event) => event.id);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toBeGreaterThan(-1);
    expect(ids[1]).toBeGreaterThan(ids[0]);
    expect(ids[2]).toBeGreaterThan(ids[1]);
    expect((await pending(org.member, queueId, ids[1])).map((event) => event.id)).toEqual([ids[2]]);
    // A lost response loses nothing: asking again with the same ID gets the same events.
    expect((await pending(org.member, queueId, ids[1])).map((event) => event.id)).toEqual([ids[2]]);
    expect(await pending(org.member, queueId, ids[2])).toEqual([]);
    await changeSetting(org.member);
    const later = (await pending(org.member, queueId, ids[2])).map((event) => event.id);
    expect(later).toHaveLength(1);
    expect(later[0]).toBeGreaterThan(ids[2]);
  });

  test("all events of one change come in one response", async () => {
    const queueId = (await register(org.member2, { fetch_event_types: [] })).queue_id;
    const response = poll(org.member2, queueId);
    await Bun.sleep(150);
    ok(await org.member2.api.patch("/settings", { full_name: "Max Renamed", emojiset: "text" }));
    const types = ok(await response).events.map((event: { type: string }) => event.type);
    expect(types).toEqual(["realm_user", "user_settings", "update_display_settings"]);
  });

  test("dont_block answers at once, with nothing when nothing is queued", async () => {
    const queueId = await settingsQueue(org.member);
    const started = Date.now();
    expect(ok(await org.member.api.get("/events", { queue_id: queueId, dont_block: true })).events).toEqual([]);
    expect(Date.now() - started).toBeLessThan(HEARTBEAT_SECONDS * 1000);
  });

  test("the answer is the success envelope as JSON, and names parameters it ignored", async () => {
    const queueId = await settingsQueue(org.member);
    await changeSetting(org.member);
    const response = await org.member.api.get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true, colour: "blue" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    expect(response.body).toEqual({
      result: "success",
      msg: "",
      events: [{ type: "user_settings", op: "update", property: "enter_sends", value: enterSends, id: expect.any(Number) }],
      queue_id: queueId,
      ignored_parameters_unsupported: ["colour"],
    });
    const eventId = (response.body as { events: Array<{ id: number }> }).events[0].id;
    expect("ignored_parameters_unsupported" in ok(await org.member.api.get("/events", { queue_id: queueId, last_event_id: eventId, dont_block: true }))).toBe(false);
  });

  test("a long-poll with nothing to say ends with a heartbeat when the interval is up", async () => {
    const queueId = await settingsQueue(org.member);
    const started = Date.now();
    expect(ok(await poll(org.member, queueId)).events).toEqual([{ type: "heartbeat", id: expect.any(Number) }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(HEARTBEAT_SECONDS * 1000 - 50);
  });

  test("a newer long-poll on the same queue answers the older one with nothing", async () => {
    const queueId = await settingsQueue(org.member);
    const first = poll(org.member, queueId);
    await Bun.sleep(150);
    const second = poll(org.member, queueId);
    expect(ok(await first).events).toEqual([]);
    await Bun.sleep(100);
    await changeSetting(org.member);
    expect(ok(await second).events.map((event: { type: string }) => event.type)).toEqual(["user_settings"]);
  });

  test("a queue gets only its own user's events, of the types it registered for, from after it was created", async () => {
    await changeSetting(org.member);
    const own = await settingsQueue(org.member);
    const usersOnly = (await register(org.member, { event_types: ["realm_user"], fetch_event_types: [] })).queue_id;
    const someoneElse = await settingsQueue(org.member2);
    await changeSetting(org.member);
    expect((await pending(org.member, own)).map((event) => event.type)).toEqual(["user_settings"]);
    expect(await pending(org.member, usersOnly)).toEqual([]);
    expect(await pending(org.member2, someoneElse)).toEqual([]);
  });
});

describe("BAD_EVENT_QUEUE_ID", () => {
  test("for an unknown queue, with the queue ID in the error", async () => {
    const response = await poll(org.member, "no-such-queue");
    expectError(response, "BAD_EVENT_QUEUE_ID", 400);
    expect(response.body.queue_id).toBe("no-such-queue");
  });

  test("for another user's queue, which stays intact for its owner", async () => {
    const queueId = await settingsQueue(org.member);
    await changeSetting(org.member);
    for (const other of [org.member2, org.admin, org.owner, org.guest, org.bot]) {
      expectError(await poll(other, queueId), "BAD_EVENT_QUEUE_ID", 400);
      expectError(await other.api.delete("/events", { queue_id: queueId }), "BAD_EVENT_QUEUE_ID", 400);
    }
    expect((await pending(org.member, queueId)).map((event) => event.type)).toEqual(["user_settings"]);
  });

  test("for a queue its client deleted; deleting twice is the same error", async () => {
    const queueId = await settingsQueue(org.member);
    ok(await org.member.api.delete("/events", { queue_id: queueId }));
    expectError(await poll(org.member, queueId), "BAD_EVENT_QUEUE_ID", 400);
    expectError(await org.member.api.delete("/events", { queue_id: queueId }), "BAD_EVENT_QUEUE_ID", 400);
  });

  test("for a long-poll waiting on a queue that gets deleted", async () => {
    const queueId = await settingsQueue(org.member);
    const waiting = poll(org.member, queueId);
    await Bun.sleep(150);
    ok(await org.member.api.delete("/events", { queue_id: queueId }));
    expectError(await waiting, "BAD_EVENT_QUEUE_ID", 400);
  });

  test("for a queue left unused past the timeout (garbage-collected)", async () => {
    const queueId = await settingsQueue(org.member);
    await Bun.sleep(QUEUE_TIMEOUT_SECONDS * 1000 + 600);
    expectError(await poll(org.member, queueId), "BAD_EVENT_QUEUE_ID", 400);
  });

  test("for a queue never read past the event cap, while a queue that is read survives", async () => {
    const neverRead = await settingsQueue(org.member);
    const read = await settingsQueue(org.member);
    let lastRead = -1;
    let received = 0;
    for (let i = 0; i < MAX_EVENTS + 1; i++) {
      await changeSetting(org.member);
      const events = await pending(org.member, read, lastRead);
      received += events.length;
      lastRead = events.at(-1)!.id;
    }
    expectError(await poll(org.member, neverRead), "BAD_EVENT_QUEUE_ID", 400);
    expect(received).toBe(MAX_EVENTS + 1);
  });

  test("a queue holding exactly the cap is kept", async () => {
    const queueId = await settingsQueue(org.member);
    for (let i = 0; i < MAX_EVENTS; i++) await changeSetting(org.member);
    expect(await pending(org.member, queueId)).toHaveLength(MAX_EVENTS);
  });
});

describe("garbage collection", () => {
  test("a client that keeps long-polling keeps its queue past the timeout", async () => {
    const queueId = await settingsQueue(org.member);
    let lastEventId = -1;
    const until = Date.now() + QUEUE_TIMEOUT_SECONDS * 1000 + 1500;
    while (Date.now() < until) {
      const events = ok(await poll(org.member, queueId, lastEventId)).events;
      lastEventId = events.at(-1)?.id ?? lastEventId;
    }
    expect(lastEventId).toBeGreaterThanOrEqual(1);
    ok(await org.member.api.get("/events", { queue_id: queueId, last_event_id: lastEventId, dont_block: true }));
  });

  test("a client that hangs up mid-poll no longer holds its queue open", async () => {
    const queueId = await settingsQueue(org.member);
    const controller = new AbortController();
    const hungUp = abortablePoll(org.member, queueId, controller.signal);
    await Bun.sleep(200);
    controller.abort();
    expect(await hungUp).toBeInstanceOf(Error);
    await Bun.sleep(QUEUE_TIMEOUT_SECONDS * 1000 + 600);
    expectError(await poll(org.member, queueId), "BAD_EVENT_QUEUE_ID", 400);
  });
});

describe("bad input", () => {
  test("queue_id is required", async () => {
    const response = await org.member.api.get("/events", {});
    expectError(response, "BAD_REQUEST", 400);
    expect(response.body.msg).toContain("queue_id");
    expectError(await org.member.api.delete("/events", {}), "BAD_REQUEST", 400);
  });

  test("last_event_id and dont_block must be a number and a boolean", async () => {
    const queueId = await settingsQueue(org.member);
    for (const params of [{ last_event_id: "latest" }, { last_event_id: "-7" }, { dont_block: "sometimes" }]) {
      const response = await org.member.api.get("/events", { queue_id: queueId, ...params });
      expectError(response, "BAD_REQUEST", 400);
      expect(response.body.msg).toContain(Object.keys(params)[0]);
    }
  });

  test("a huge queue_id is refused, not looked up", async () => {
    expectError(await org.member.api.get("/events", { queue_id: "q".repeat(10_000) }), "BAD_REQUEST", 400);
  });

  test("without credentials there are no events", async () => {
    const queueId = await settingsQueue(org.member);
    expectError(await org.anon.get("/events", { queue_id: queueId }), "UNAUTHORIZED", 401);
    expectError(await org.anon.delete("/events", { queue_id: queueId }), "UNAUTHORIZED", 401);
  });
});
