import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, setRealmSetting, subscribe, systemGroupId, uniqueName } from "../helpers/channels";
import { createPerson, expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS, pending, pendingOf, register } from "../events/support";

let org: Org;
let counter = 0;

beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

/** A fresh member for each test that deactivates someone, so the seeded roles stay intact. */
const freshMember = (role?: number) => createPerson(org.owner, org.anon, `Temp Person ${++counter}`, role);
const queueOf = async (person: Person) => (await register(person, { fetch_event_types: [] })).queue_id as string;
const isActive = async (userId: number) => ok(await org.owner.api.get(`/users/${userId}`)).user.is_active as boolean;
const outboxRows = (userId: number) =>
  queryServer<{ kind: string; payload: string; created_at: number; sent_at: number | null; attempts: number }>(
    org.server,
    {
      sqlite: "SELECT kind, payload, created_at, sent_at, attempts FROM outbox WHERE json_extract(payload, '$.user_id') = ?",
      postgres: "SELECT kind, payload, created_at, sent_at, attempts FROM outbox WHERE payload->>'user_id' = ?::text",
    },
    userId,
  );
const strip = (events: Array<{ id: number }>) => events.map(({ id: _id, ...event }) => event);

async function newBot(owner: Person): Promise<Person> {
  const body = ok(await owner.api.post("/bots", { full_name: `Temp Bot ${++counter}`, short_name: `temp${counter}` }));
  return { id: body.user_id, email: body.email, password: "", apiKey: body.api_key, api: org.anon.as(body.email, body.api_key) };
}

describe("DELETE /users/{user_id}", () => {
  test("an administrator deactivates a member: their key stops working at once, their messages stay", async () => {
    const leaver = await freshMember();
    const channel = uniqueName();
    await subscribe(leaver, [channel]);
    const { id: messageId } = await sendOk(leaver, channelMessage(channel, "farewell", "still here afterwards"));
    expect(ok(await org.admin.api.delete(`/users/${leaver.id}`))).toEqual({ result: "success", msg: "" });
    expect(await isActive(leaver.id)).toBe(false);
    expectError(await leaver.api.get("/users/me"), "USER_DEACTIVATED", 401);
    expectError(await leaver.api.post("/register", {}), "USER_DEACTIVATED", 401);
    const message = ok(await org.owner.api.get(`/messages/${messageId}`)).message;
    expect(message).toMatchObject({ sender_id: leaver.id, content: "<p>still here afterwards</p>" });
  });

  test("their event queues end at once, and a long-poll in flight is answered BAD_EVENT_QUEUE_ID", async () => {
    const leaver = await freshMember();
    const parked = await queueOf(leaver);
    const idle = await queueOf(leaver);
    const longPoll = leaver.api.get("/events", { queue_id: parked, last_event_id: -1 });
    await Bun.sleep(100);
    ok(await org.admin.api.delete(`/users/${leaver.id}`));
    const answered = await Promise.race([longPoll, Bun.sleep(5000).then(() => null)]);
    expect(answered).not.toBeNull();
    expectError(answered!, "BAD_EVENT_QUEUE_ID", 400);
    // Even with the right key back (after reactivation), the old queues are gone.
    ok(await org.admin.api.post(`/users/${leaver.id}/reactivate`));
    expectError(await leaver.api.get("/events", { queue_id: idle, last_event_id: -1, dont_block: true }), "BAD_EVENT_QUEUE_ID", 400);
  });

  test("every active user who can see them is told is_active false; snapshots replay to the fresh state", async () => {
    const leaver = await freshMember();
    const watchers = [org.owner, org.admin, org.moderator, org.member, org.guest, org.bot];
    const snapshots = await Promise.all(watchers.map((person) => register(person, { fetch_event_types: ["realm_user"] })));
    ok(await org.admin.api.delete(`/users/${leaver.id}`));
    for (const [index, person] of watchers.entries()) {
      const events = await pendingOf(person, snapshots[index].queue_id, ["realm_user"]);
      expect(strip(events)).toEqual([{ type: "realm_user", op: "update", person: { user_id: leaver.id, is_active: false } }]);
      const fresh = await register(person, { fetch_event_types: ["realm_user"] });
      expect(replayActivity(snapshots[index], events)).toEqual(userLists(fresh));
    }
  });

  test("subscribers are told the user left their channels before the realm_user event", async () => {
    const leaver = await freshMember();
    const channel = await createChannel(org, org.member, { principals: [org.member.id, leaver.id] });
    const queueId = await queueOf(org.member);
    ok(await org.admin.api.delete(`/users/${leaver.id}`));
    const events = strip(await pendingOf(org.member, queueId, ["subscription", "realm_user"]));
    expect(events[0]).toEqual({ type: "subscription", op: "peer_remove", stream_ids: [channel], user_ids: [leaver.id] });
    expect(events[1]).toMatchObject({ type: "realm_user", op: "update" });
    const subscribers = ok(await org.member.api.get(`/streams/${channel}/members`)).subscribers;
    expect(subscribers).not.toContain(leaver.id);
  });

  test("the bots they own are deactivated with them; their owner and administrators are told", async () => {
    const leaver = await freshMember();
    const bot = await newBot(leaver);
    const adminQueue = await queueOf(org.admin);
    const memberQueue = await queueOf(org.member);
    ok(await org.admin.api.delete(`/users/${leaver.id}`));
    expect(await isActive(bot.id)).toBe(false);
    expectError(await bot.api.get("/users/me"), "USER_DEACTIVATED", 401);
    expect(strip(await pendingOf(org.admin, adminQueue, ["realm_bot"]))).toEqual([{ type: "realm_bot", op: "update", bot: { user_id: bot.id, is_active: false } }]);
    expect(await pendingOf(org.member, memberQueue, ["realm_bot"])).toEqual([]);
    expect(strip(await pendingOf(org.member, memberQueue, ["realm_user"]))).toEqual([
      { type: "realm_user", op: "update", person: { user_id: bot.id, is_active: false } },
      { type: "realm_user", op: "update", person: { user_id: leaver.id, is_active: false } },
    ]);
  });

  test("without a comment no e-mail is queued; an empty comment queues one without text; a comment is included", async () => {
    const [silent, plain, worded] = await Promise.all([freshMember(), freshMember(), freshMember()]);
    ok(await org.admin.api.delete(`/users/${silent.id}`));
    ok(await org.admin.api.delete(`/users/${plain.id}`, { deactivation_notification_comment: "" }));
    ok(await org.admin.api.delete(`/users/${worded.id}`, { deactivation_notification_comment: "  Farewell, and thanks!  " }));
    expect(outboxRows(silent.id)).toEqual([]);
    for (const [person, comment] of [[plain, null], [worded, "Farewell, and thanks!"]] as const) {
      const rows = outboxRows(person.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ kind: "account_deactivated_email", sent_at: null, attempts: 0 });
      expect(Math.abs(rows[0].created_at - Date.now() / 1000)).toBeLessThan(60);
      expect(JSON.parse(rows[0].payload)).toMatchObject({ user_id: person.id, to: person.email, comment, realm_name: "Test Org" });
    }
  });

  test("an owner may deactivate another owner", async () => {
    const secondOwner = await freshMember(100);
    ok(await org.owner.api.delete(`/users/${secondOwner.id}`));
    expect(await isActive(secondOwner.id)).toBe(false);
  });
});

describe("group member lists follow deactivation (register leaves deactivated users out)", () => {
  test("those who see the user drop them on realm_user, a guest who cannot gets remove_members; on return everyone gets add_members", async () => {
    const leaver = await freshMember();
    setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:members"));
    try {
      const watchers = [org.member, org.guest];
      const groupsOf = async (person: Person) => (await register(person, { fetch_event_types: ["realm_user_groups"] })) as State;
      const before = await Promise.all(watchers.map(groupsOf));
      ok(await org.admin.api.delete(`/users/${leaver.id}`));
      const guestEvents = await pendingOf(org.guest, before[1].queue_id, ["realm_user", "user_group"]);
      expect(guestEvents.filter((event) => event.type === "realm_user")).toEqual([]);
      expect(guestEvents.length).toBeGreaterThan(0);
      for (const event of guestEvents) expect(event).toMatchObject({ type: "user_group", op: "remove_members", user_ids: [leaver.id] });
      const afterLeaving = await Promise.all(watchers.map(groupsOf));
      for (const [index, person] of watchers.entries()) {
        const events = await pendingOf(person, before[index].queue_id, ["realm_user", "user_group"]);
        expect(replayGroups(before[index].realm_user_groups, events)).toEqual(afterLeaving[index].realm_user_groups);
      }
      ok(await org.admin.api.post(`/users/${leaver.id}/reactivate`));
      for (const [index, person] of watchers.entries()) {
        const events = await pendingOf(person, afterLeaving[index].queue_id, ["realm_user", "user_group"]);
        const fresh = (await groupsOf(person)).realm_user_groups;
        expect(fresh.some((group: State) => group.members.includes(leaver.id))).toBe(true);
        expect(replayGroups(afterLeaving[index].realm_user_groups, events)).toEqual(fresh);
      }
    } finally {
      setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:everyone"));
    }
  });
});

describe("DELETE /users/{user_id}: refusals change nothing", () => {
  for (const role of ["moderator", "member", "guest", "bot"] as const) {
    test(`a ${role} is refused with BAD_REQUEST, nobody is told`, async () => {
      const target = await freshMember();
      const queueId = await queueOf(org.owner);
      const response = await org[role].api.delete(`/users/${target.id}`);
      expectError(response, "BAD_REQUEST", 400);
      expect(response.body.msg).toContain("administrators");
      expect(await isActive(target.id)).toBe(true);
      ok(await target.api.get("/users/me"));
      expect(await pendingOf(org.owner, queueId, ["realm_user"])).toEqual([]);
    });
  }

  test("the only organization owner cannot be deactivated, even by themselves, and no e-mail is queued", async () => {
    const response = await org.owner.api.delete(`/users/${org.owner.id}`, { deactivation_notification_comment: "Bye" });
    expectError(response, "BAD_REQUEST", 400);
    expect(response.body.msg).toBe("Cannot deactivate the only organization owner");
    expect(await isActive(org.owner.id)).toBe(true);
    expect(outboxRows(org.owner.id)).toEqual([]);
  });

  test("an administrator cannot deactivate an owner", async () => {
    const response = await org.admin.api.delete(`/users/${org.owner.id}`);
    expectError(response, "UNAUTHORIZED_PRINCIPAL", 400);
    expect(response.body.msg).toContain("owner");
    expect(await isActive(org.owner.id)).toBe(true);
  });

  test("unknown users, bots, system bots, deactivated users and malformed IDs are BAD_REQUEST", async () => {
    const gone = await freshMember();
    ok(await org.admin.api.delete(`/users/${gone.id}`));
    const notificationBot = queryServer<{ id: number }>(org.server, "SELECT id FROM users WHERE is_system_bot")[0].id;
    for (const id of [999999, org.bot.id, notificationBot, gone.id]) expectError(await org.admin.api.delete(`/users/${id}`), "BAD_REQUEST", 400);
    expectError(await org.admin.api.delete("/users/abc"), "BAD_REQUEST", 400);
    expect(await isActive(org.bot.id)).toBe(true);
  });

  test("a comment over 2000 characters is refused before anything happens", async () => {
    const target = await freshMember();
    expectError(await org.admin.api.delete(`/users/${target.id}`, { deactivation_notification_comment: "x".repeat(2001) }), "BAD_REQUEST", 400);
    expectError(await org.admin.api.delete(`/users/${target.id}`, { deactivation_notification_comment: "x".repeat(20_000) }), "BAD_REQUEST", 400);
    expect(await isActive(target.id)).toBe(true);
    expect(outboxRows(target.id)).toEqual([]);
  });

  test("without credentials nothing happens", async () => {
    expectError(await org.anon.delete(`/users/${org.member.id}`), "UNAUTHORIZED", 401);
    expect(await isActive(org.member.id)).toBe(true);
  });
});

describe("POST /users/{user_id}/reactivate", () => {
  test("an administrator reactivates a user: the key works again, everyone who sees them is told, subscribers too", async () => {
    const returner = await freshMember();
    const channel = await createChannel(org, org.member, { principals: [org.member.id, returner.id] });
    ok(await org.admin.api.delete(`/users/${returner.id}`));
    const queueId = await queueOf(org.member);
    expect(ok(await org.admin.api.post(`/users/${returner.id}/reactivate`))).toEqual({ result: "success", msg: "" });
    expect(await isActive(returner.id)).toBe(true);
    ok(await returner.api.get("/users/me"));
    expect(strip(await pendingOf(org.member, queueId, ["subscription", "realm_user"]))).toEqual([
      { type: "subscription", op: "peer_add", stream_ids: [channel], user_ids: [returner.id] },
      { type: "realm_user", op: "update", person: { user_id: returner.id, is_active: true } },
    ]);
  });

  test("their bots stay deactivated; a bot comes back on its own once its owner is back", async () => {
    const owner = await freshMember();
    const bot = await newBot(owner);
    ok(await org.admin.api.delete(`/users/${owner.id}`));
    const early = await org.admin.api.post(`/users/${bot.id}/reactivate`);
    expectError(early, "BAD_REQUEST", 400);
    expect(early.body.msg).toContain("owner");
    ok(await org.admin.api.post(`/users/${owner.id}/reactivate`));
    expect(await isActive(bot.id)).toBe(false);
    const queueId = await queueOf(owner);
    ok(await org.admin.api.post(`/users/${bot.id}/reactivate`));
    ok(await bot.api.get("/users/me"));
    expect(strip(await pendingOf(owner, queueId, ["realm_bot"]))).toEqual([{ type: "realm_bot", op: "update", bot: { user_id: bot.id, is_active: true } }]);
  });

  for (const role of ["moderator", "member", "guest", "bot"] as const) {
    test(`a ${role} is refused with UNAUTHORIZED_PRINCIPAL and the user stays deactivated`, async () => {
      const target = await freshMember();
      ok(await org.admin.api.delete(`/users/${target.id}`));
      const response = await org[role].api.post(`/users/${target.id}/reactivate`);
      expectError(response, "UNAUTHORIZED_PRINCIPAL", 400);
      expect(response.body.msg).toBe("Must be an organization administrator");
      expect(await isActive(target.id)).toBe(false);
    });
  }

  test("an active user, an unknown ID and a system bot are BAD_REQUEST", async () => {
    const queueId = await queueOf(org.owner);
    const notificationBot = queryServer<{ id: number }>(org.server, "SELECT id FROM users WHERE is_system_bot")[0].id;
    for (const id of [org.member.id, 999999, notificationBot]) expectError(await org.admin.api.post(`/users/${id}/reactivate`), "BAD_REQUEST", 400);
    expect(await pending(org.owner, queueId)).toEqual([]);
  });
});

describe("DELETE /bots/{bot_id}", () => {
  test("the owner deactivates their bot; the owner and administrators get realm_bot, others only realm_user", async () => {
    const bot = await newBot(org.member);
    const [ownerQueue, adminQueue, otherQueue] = await Promise.all([queueOf(org.member), queueOf(org.admin), queueOf(org.member2)]);
    ok(await org.member.api.delete(`/bots/${bot.id}`));
    expectError(await bot.api.get("/users/me"), "USER_DEACTIVATED", 401);
    const botUpdate = [{ type: "realm_bot", op: "update", bot: { user_id: bot.id, is_active: false } }];
    expect(strip(await pendingOf(org.member, ownerQueue, ["realm_bot"]))).toEqual(botUpdate);
    expect(strip(await pendingOf(org.admin, adminQueue, ["realm_bot"]))).toEqual(botUpdate);
    expect(await pendingOf(org.member2, otherQueue, ["realm_bot"])).toEqual([]);
    expect(strip(await pendingOf(org.member2, otherQueue, ["realm_user"]))).toEqual([{ type: "realm_user", op: "update", person: { user_id: bot.id, is_active: false } }]);
  });

  test("an administrator may deactivate anyone's bot; others, people and unknown IDs are 'No such bot'", async () => {
    const bot = await newBot(org.member);
    for (const person of [org.member2, org.moderator, org.guest]) {
      const response = await person.api.delete(`/bots/${bot.id}`);
      expectError(response, "BAD_REQUEST", 400);
      expect(response.body.msg).toBe("No such bot");
    }
    expect(await isActive(bot.id)).toBe(true);
    for (const id of [org.member2.id, 999999]) expectError(await org.admin.api.delete(`/bots/${id}`), "BAD_REQUEST", 400);
    ok(await org.admin.api.delete(`/bots/${bot.id}`));
    expect(await isActive(bot.id)).toBe(false);
    expectError(await org.admin.api.delete(`/bots/${bot.id}`), "BAD_REQUEST", 400);
  });
});

describe("DELETE /users/me", () => {
  test("a user deactivates their own account, and their bots with it", async () => {
    const leaver = await freshMember();
    const bot = await newBot(leaver);
    ok(await leaver.api.delete("/users/me"));
    expect(await isActive(leaver.id)).toBe(false);
    expect(await isActive(bot.id)).toBe(false);
    expectError(await leaver.api.get("/users/me"), "USER_DEACTIVATED", 401);
  });

  test("the only owner cannot leave, and is told so", async () => {
    const response = await org.owner.api.delete("/users/me");
    expectError(response, "BAD_REQUEST", 400);
    expect(response.body).toMatchObject({ msg: "Cannot deactivate the only organization owner", is_last_owner: true, entity: "organization owner" });
    expect(await isActive(org.owner.id)).toBe(true);
  });
});

type State = Record<string, any>;

/** A client's handling of group membership: deactivated users leave every group; member events apply as given. */
function replayGroups(groups: State[], events: State[]) {
  const next: State[] = structuredClone(groups);
  for (const event of events) {
    if (event.type === "realm_user" && event.person.is_active === false) {
      for (const group of next) group.members = group.members.filter((id: number) => id !== event.person.user_id);
    }
    if (event.type !== "user_group") continue;
    const group = next.find((each) => each.id === event.group_id)!;
    if (event.op === "add_members") group.members = [...new Set([...group.members, ...event.user_ids])].sort((a, b) => a - b);
    if (event.op === "remove_members") group.members = group.members.filter((id: number) => !event.user_ids.includes(id));
  }
  return next;
}

/** The user lists of a snapshot, by ID: what realm_user activity events keep current. */
function userLists(state: State) {
  const ids = (users: State[]) => users.map((user) => `${user.user_id}:${user.is_active}`).sort();
  return { active: ids(state.realm_users), inactive: ids(state.realm_non_active_users) };
}

/** A client's handling of is_active updates: the user moves between the active and deactivated lists. */
function replayActivity(state: State, events: State[]) {
  const active: State[] = structuredClone(state.realm_users);
  const inactive: State[] = structuredClone(state.realm_non_active_users);
  for (const event of events) {
    const { user_id, is_active } = event.person;
    if (is_active === undefined) continue;
    const [from, to] = is_active ? [inactive, active] : [active, inactive];
    const index = from.findIndex((user) => user.user_id === user_id);
    if (index >= 0) to.push({ ...from.splice(index, 1)[0], is_active });
  }
  return userLists({ realm_users: active, realm_non_active_users: inactive });
}
