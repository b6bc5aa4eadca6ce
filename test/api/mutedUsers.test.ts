import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createChannel, deactivateUser, queryServer, setRealmSetting, systemGroupId, uniqueName } from "../helpers/channels";
import { createPerson, expectError, ok, type Org, type Person, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";
import { pending, SEED_TIMEOUT_MS } from "../events/support";

/**
 * Muted users (reference: mute-user, unmute-user; register muted_users; event muted_users) and
 * their effect on read state: the muted person's messages are read for the muter, those
 * already there when muting and those sent later.
 */

let org: Org;
let channel: string;

beforeAll(async () => {
  org = await seedOrg();
  channel = uniqueName("mutes");
  await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.moderator.id, org.guest.id] }, channel);
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const mute = (person: Person, id: number | string) => person.api.post(`/users/me/muted_users/${id}`);
const unmute = (person: Person, id: number | string) => person.api.delete(`/users/me/muted_users/${id}`);
const mutedList = async (person: Person) => ok(await person.api.post("/register", { fetch_event_types: ["muted_users"] })).muted_users as Array<{ id: number; timestamp: number }>;
const storedMutes = () => queryServer<{ user_id: number; muted_user_id: number }>(org.server, "SELECT user_id, muted_user_id FROM muted_users ORDER BY user_id, muted_user_id");
const flagsOf = async (person: Person, id: number): Promise<string[]> => ok(await person.api.get(`/messages/${id}`)).message.flags;

async function unreadIds(person: Person): Promise<number[]> {
  const { unread_msgs } = ok(await person.api.post("/register", { fetch_event_types: ["update_message_flags"] }));
  return [...unread_msgs.streams, ...unread_msgs.pms, ...unread_msgs.huddles].flatMap((entry: { unread_message_ids: number[] }) => entry.unread_message_ids).sort((a: number, b: number) => a - b);
}

/** Undoes every mute, so each test starts from none. */
async function clearAll() {
  for (const { user_id, muted_user_id } of storedMutes()) {
    const person = [org.owner, org.admin, org.moderator, org.member, org.member2, org.guest, org.bot].find((each) => each.id === user_id)!;
    ok(await unmute(person, muted_user_id));
  }
}

describe("POST and DELETE /users/me/muted_users/{muted_user_id}", () => {
  beforeEach(clearAll);

  test("muting answers plain success and lists the user with the time of muting; unmuting takes them off", async () => {
    const before = Math.floor(Date.now() / 1000);
    expect(ok(await mute(org.member, org.member2.id))).toEqual({ result: "success", msg: "" });
    const [entry] = await mutedList(org.member);
    expect(entry).toEqual({ id: org.member2.id, timestamp: expect.any(Number) });
    expect(entry.timestamp).toBeGreaterThanOrEqual(before - 1);
    expect(entry.timestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    ok(await mute(org.member, org.moderator.id));
    expect((await mutedList(org.member)).map((each) => each.id)).toEqual([org.member2.id, org.moderator.id]);
    expect(ok(await unmute(org.member, org.member2.id))).toEqual({ result: "success", msg: "" });
    expect((await mutedList(org.member)).map((each) => each.id)).toEqual([org.moderator.id]);
  });

  test("every role may mute, bots included; each list is its owner's own", async () => {
    const muters = [org.owner, org.admin, org.moderator, org.member2, org.guest, org.bot];
    for (const person of muters) ok(await mute(person, org.member.id));
    for (const person of muters) expect((await mutedList(person)).map((each) => each.id)).toEqual([org.member.id]);
    expect(await mutedList(org.member)).toEqual([]);
  });

  test("bots and deactivated users can be muted and unmuted, as in the reference since feature level 188", async () => {
    ok(await mute(org.member2, org.bot.id));
    const leaver = await createPerson(org.owner, org.anon, "Lee Leaver");
    await deactivateUser(org, leaver.id);
    ok(await mute(org.member2, leaver.id));
    expect((await mutedList(org.member2)).map((each) => each.id)).toEqual([org.bot.id, leaver.id]);
    ok(await unmute(org.member2, leaver.id));
    ok(await unmute(org.member2, org.bot.id));
  });

  test("the reference's refusals: self, unknown, already muted, not muted; nothing changes", async () => {
    ok(await mute(org.member, org.member2.id));
    const before = storedMutes();
    const cases: Array<[Promise<{ status: number; body: any }>, string]> = [
      [mute(org.member, org.member.id), "Cannot mute self"],
      [mute(org.member, 999_999), "No such user"],
      [mute(org.member, org.member2.id), "User already muted"],
      [unmute(org.member, org.moderator.id), "User is not muted"],
      [unmute(org.member, org.member.id), "User is not muted"],
      [unmute(org.member, 999_999), "No such user"],
      [mute(org.member, 0), "No such user"],
      [unmute(org.member, -5), "No such user"],
    ];
    for (const [call, message] of cases) {
      const response = await call;
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe(message);
    }
    expect(storedMutes()).toEqual(before);
  });

  test("IDs that are not integers are a BAD_REQUEST naming the parameter; integers no user has are No such user", async () => {
    for (const id of ["abc", "1.5", "1e400"]) {
      for (const call of [mute, unmute]) {
        const response = await call(org.member, id);
        expectError(response, "BAD_REQUEST");
        expect(response.body.var_name).toBe("muted_user_id");
      }
    }
    for (const id of ["99999999999999999999999", "%20"]) {
      for (const call of [mute, unmute]) {
        const response = await call(org.member, id);
        expectError(response, "BAD_REQUEST");
        expect(response.body.msg).toBe("No such user");
      }
    }
    expect(storedMutes()).toEqual([]);
  });

  test("a guest who may not see everyone cannot mute, or unmute, whom they cannot see: No such user", async () => {
    ok(await mute(org.guest, org.member2.id));
    setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:members"));
    try {
      for (const response of [await mute(org.guest, org.member.id), await unmute(org.guest, org.member2.id)]) {
        expectError(response, "BAD_REQUEST");
        expect(response.body.msg).toBe("No such user");
      }
      // Bots stay visible to everyone.
      ok(await mute(org.guest, org.bot.id));
      expect(storedMutes().filter((row) => row.user_id === org.guest.id).map((row) => row.muted_user_id)).toEqual([org.bot.id, org.member2.id].sort((a, b) => a - b));
    } finally {
      setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:everyone"));
    }
  });

  test("without credentials nothing changes", async () => {
    expect((await org.anon.post(`/users/me/muted_users/${org.member.id}`)).status).toBe(401);
    expect((await org.anon.delete(`/users/me/muted_users/${org.member.id}`)).status).toBe(401);
    expect(storedMutes()).toEqual([]);
  });
});

describe("muted_users events", () => {
  beforeEach(clearAll);

  test("muting and unmuting send the whole list to the muter's queues only; refusals send nothing", async () => {
    const mine = ok(await org.member.api.post("/register", { fetch_event_types: ["muted_users"] }));
    const theirs = ok(await org.member2.api.post("/register", { fetch_event_types: ["muted_users", "update_message_flags"] }));
    ok(await mute(org.member, org.member2.id));
    ok(await mute(org.member, org.guest.id));
    expectError(await mute(org.member, org.guest.id), "BAD_REQUEST");
    ok(await unmute(org.member, org.member2.id));
    const list = await mutedList(org.member);
    const events = (await pending(org.member, mine.queue_id)).filter((event) => event.type === "muted_users");
    expect(events.map((event) => event.muted_users.map((each: { id: number }) => each.id))).toEqual([[org.member2.id], [org.member2.id, org.guest.id], [org.guest.id]]);
    expect(events.at(-1)!.muted_users).toEqual(list);
    expect(Object.keys(events[0]).sort()).toEqual(["id", "muted_users", "type"]);
    expect((await pending(org.member2, theirs.queue_id)).filter((event) => event.type !== "heartbeat")).toEqual([]);
  });
});

describe("what muting does to messages", () => {
  beforeEach(clearAll);

  test("muting marks the muted person's unread messages read, with one update_message_flags event; others' stay unread", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const fromMember = [
      (await sendOk(org.member, channelMessage(channel, "t", "one"))).id,
      (await sendOk(org.member, directMessage([org.member2.id], "two"))).id,
      (await sendOk(org.member, directMessage([org.member2.id, org.guest.id], "three"))).id,
    ];
    const fromModerator = (await sendOk(org.moderator, channelMessage(channel, "t", "other"))).id;
    expect(await unreadIds(org.member2)).toEqual([...fromMember, fromModerator]);
    const queue = ok(await org.member2.api.post("/register", { fetch_event_types: ["update_message_flags", "muted_users"] })).queue_id;
    ok(await mute(org.member2, org.member.id));
    expect(await unreadIds(org.member2)).toEqual([fromModerator]);
    for (const id of fromMember) expect(await flagsOf(org.member2, id)).toEqual(["read"]);
    const events = (await pending(org.member2, queue)).filter((event) => event.type !== "heartbeat").map(({ id: _id, ...event }) => event);
    expect(events[0]).toEqual({ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: fromMember, all: false });
    expect(events.map((event) => event.type)).toEqual(["update_message_flags", "muted_users"]);
    // The others in the conversation are untouched.
    expect(await unreadIds(org.guest)).toEqual(expect.arrayContaining([fromMember[0], fromMember[2]]));
  });

  test("with nothing unread from them, muting sends only muted_users", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const queue = ok(await org.member2.api.post("/register", { fetch_event_types: ["update_message_flags", "muted_users"] })).queue_id;
    ok(await mute(org.member2, org.moderator.id));
    expect((await pending(org.member2, queue)).filter((event) => event.type !== "heartbeat").map((event) => event.type)).toEqual(["muted_users"]);
  });

  test("messages a muted person sends arrive read for the muter, channel and direct alike; mentions stay flagged, as the reference", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    ok(await org.moderator.api.post("/mark_all_as_read", {}));
    ok(await mute(org.member2, org.member.id));
    const queue = ok(await org.member2.api.post("/register", { fetch_event_types: ["message"] })).queue_id;
    const inChannel = (await sendOk(org.member, channelMessage(channel, "t", "@**Max Member** look"))).id;
    const direct = (await sendOk(org.member, directMessage([org.member2.id], "psst"))).id;
    expect(await flagsOf(org.member2, inChannel)).toEqual(["read", "mentioned"]);
    expect(await flagsOf(org.member2, direct)).toEqual(["read"]);
    expect(await flagsOf(org.moderator, inChannel)).toEqual([]);
    expect(await unreadIds(org.member2)).toEqual([]);
    expect(await unreadIds(org.moderator)).toEqual([inChannel]);
    const arrived = (await pending(org.member2, queue)).filter((event) => event.type === "message");
    expect(arrived.map((event) => [event.message.id, event.flags])).toEqual([
      [inChannel, ["read", "mentioned"]],
      [direct, ["read"]],
    ]);
    const mentions = ok(await org.member2.api.post("/register", { fetch_event_types: ["update_message_flags"] })).unread_msgs.mentions;
    expect(mentions).toEqual([]);
  });

  test("after unmuting, new messages are unread again; those read while muted stay read", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    ok(await mute(org.member2, org.member.id));
    const during = (await sendOk(org.member, channelMessage(channel, "t", "while muted"))).id;
    ok(await unmute(org.member2, org.member.id));
    const after = (await sendOk(org.member, channelMessage(channel, "t", "after"))).id;
    expect(await flagsOf(org.member2, during)).toEqual(["read"]);
    expect(await flagsOf(org.member2, after)).toEqual([]);
    expect(await unreadIds(org.member2)).toEqual([after]);
  });

  test("the muted person's own view is unchanged: the muter's messages stay unread for them", async () => {
    ok(await org.member.api.post("/mark_all_as_read", {}));
    ok(await mute(org.member2, org.member.id));
    const id = (await sendOk(org.member2, directMessage([org.member.id], "hello"))).id;
    expect(await unreadIds(org.member)).toEqual([id]);
  });
});
