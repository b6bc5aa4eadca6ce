import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ApiClient } from "../helpers/client";
import { expectError, ok, seedOrg, type Org } from "../helpers/seed";
import { SEED_TIMEOUT_MS, pending, register } from "./support";

/** Queues survive a graceful restart (SIGTERM), as with the reference server, and not a crash. */

let org: Org;

beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const queueFile = () => join(org.server.dataDir, "event_queues.json");

/** Restarts the server; it comes back on a new port, so everyone's client follows it there. */
async function restart(signal: "SIGTERM" | "SIGKILL" = "SIGTERM") {
  await org.server.restart(signal);
  org.anon = new ApiClient(org.server.url);
  for (const role of ["owner", "admin", "moderator", "member", "member2", "guest", "bot"] as const) {
    org[role] = { ...org[role], api: org.anon.as(org[role].email, org[role].apiKey) };
  }
}

describe("a graceful restart", () => {
  test("keeps every queue with its unread events, and appends a restart event to each", async () => {
    // Like heartbeats, the restart event reaches every queue whatever its event_types.
    const owner = await register(org.owner, { event_types: ["user_settings"], fetch_event_types: [] });
    const member = await register(org.member, { fetch_event_types: [] });
    ok(await org.owner.api.patch("/settings", { enter_sends: true }));
    ok(await org.member.api.patch("/settings", { enter_sends: true }));
    const memberBefore = ok(await org.member.api.get("/events", { queue_id: member.queue_id, last_event_id: -1, dont_block: true })).events as Array<{ id: number }>;
    const version = ok(await org.anon.get("/server_settings"));

    expect(await org.server.stop("SIGTERM")).toBe(0);
    expect(existsSync(queueFile())).toBe(true);
    await restart();
    expect(existsSync(queueFile())).toBe(false);

    const restartEvent = { type: "restart", zulip_version: version.zulip_version, zulip_feature_level: version.zulip_feature_level, zulip_merge_base: version.zulip_merge_base, svc_version: version.svc_version };
    const ownerEvents = await pending(org.owner, owner.queue_id);
    expect(ownerEvents.map((event) => event.type)).toEqual(["user_settings", "restart"]);
    expect(ownerEvents[1]).toMatchObject({ ...restartEvent, server_generation: expect.any(Number) });
    // Acknowledged events stay acknowledged; IDs continue above every ID given before.
    const lastBefore = Math.max(ownerEvents[0].id, ...memberBefore.map((event) => event.id));
    expect(ownerEvents[1].id).toBeGreaterThan(lastBefore);
    expect(memberBefore.length).toBeGreaterThan(0);
    const memberEvents = await pending(org.member, member.queue_id, memberBefore.at(-1)!.id);
    expect(memberEvents.map((event) => event.type)).toEqual(["restart"]);
    expect(memberEvents[0].id).toBeGreaterThan(lastBefore);
  });

  test("clients simply resume: new events keep flowing to the old queue, filtered as registered", async () => {
    const owner = await register(org.owner, { event_types: ["user_settings"], fetch_event_types: [] });
    await restart();
    ok(await org.owner.api.patch("/settings", { enter_sends: false }));
    const events = await pending(org.owner, owner.queue_id);
    expect(events.map((event) => event.type)).toEqual(["restart", "user_settings"]);
    expect(events[1]).toMatchObject({ property: "enter_sends", value: false });
    expect(events[1].id).toBeGreaterThan(events[0].id);
  });

  test("a long-poll cut by the shutdown resumes on the same queue", async () => {
    const member = await register(org.member, { event_types: ["user_settings"], fetch_event_types: [] });
    const cut = org.member.api.get("/events", { queue_id: member.queue_id, last_event_id: -1 }).catch((error: Error) => error);
    await Bun.sleep(200);
    await restart();
    const outcome = await cut;
    // Either answered with nothing as the server stopped, or the connection was closed.
    if (!(outcome instanceof Error)) expect(ok(outcome).events).toEqual([]);
    expect((await pending(org.member, member.queue_id)).map((event) => event.type)).toEqual(["restart"]);
  });

  test("an unknown queue is still unknown afterwards, and another user's still not theirs", async () => {
    const member = await register(org.member, { fetch_event_types: [] });
    await restart();
    expectError(await org.member.api.get("/events", { queue_id: "never-registered" }), "BAD_EVENT_QUEUE_ID", 400);
    expectError(await org.member2.api.get("/events", { queue_id: member.queue_id }), "BAD_EVENT_QUEUE_ID", 400);
  });
});

describe("a crash", () => {
  test("loses the queues: clients get BAD_EVENT_QUEUE_ID and register again", async () => {
    const owner = await register(org.owner, { fetch_event_types: [] });
    await restart("SIGKILL");
    expectError(await org.owner.api.get("/events", { queue_id: owner.queue_id, dont_block: true }), "BAD_EVENT_QUEUE_ID", 400);
    const again = await register(org.owner, { fetch_event_types: [] });
    expect(await pending(org.owner, again.queue_id)).toEqual([]);
  });

  test("after a crash, queues saved by an earlier graceful stop are not replayed", async () => {
    const owner = await register(org.owner, { fetch_event_types: [] });
    await restart("SIGTERM");
    await restart("SIGKILL");
    expect(existsSync(queueFile())).toBe(false);
    expectError(await org.owner.api.get("/events", { queue_id: owner.queue_id, dont_block: true }), "BAD_EVENT_QUEUE_ID", 400);
  });
});
