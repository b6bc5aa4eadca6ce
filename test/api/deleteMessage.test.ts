import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, setRealmSetting, systemGroupId, uniqueName } from "../helpers/channels";
import { editServerDatabase } from "../helpers/inProcess";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk, storedMessage } from "../helpers/sending";
import { pendingOf, register } from "../events/support";

/** DELETE /messages/{id}: who may delete what, and the delete_message and stream events. */

let org: Org;
let channelName: string;
let channelId: number;

beforeAll(async () => {
  org = await seedOrg();
  channelName = uniqueName("deletions");
  channelId = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.guest.id, org.moderator.id] }, channelName);
}, 60_000);
afterAll(() => org.server.dispose());

const post = async (sender: Person, content = "to be deleted", to = channelName, topic = "doomed") => (await sendOk(sender, channelMessage(to, topic, content))).id;
const remove = (person: Person, id: number | string) => person.api.delete(`/messages/${id}`);
const exists = (id: number) => storedMessage(org.server, id) !== undefined;
const makeOld = (id: number, secondsAgo: number) => editServerDatabase(org.server, "UPDATE messages SET date_sent = ? WHERE id = ?", Math.floor(Date.now() / 1000) - secondsAgo, id);

async function expectRefused(id: number, response: Promise<{ status: number; body: any }>, msg: string) {
  const result = await response;
  expectError(result, "BAD_REQUEST");
  expect(result.body.msg).toBe(msg);
  expect(exists(id)).toBe(true);
}

const NO_PERMISSION = "You don't have permission to delete this message";

describe("who may delete", () => {
  test("the sender deletes their own message; its reactions and flags go with it", async () => {
    const id = await post(org.member, "mention @**Max Member**");
    ok(await org.member2.api.post(`/messages/${id}/reactions`, { emoji_name: "octopus" }));
    expect(queryServer(org.server, "SELECT 1 FROM message_flags WHERE message_id = ?", id).length).toBeGreaterThan(0);
    const body = ok(await remove(org.member, id));
    expect(body).toEqual({ result: "success", msg: "" });
    expect(exists(id)).toBe(false);
    expect(queryServer(org.server, "SELECT 1 FROM reactions WHERE message_id = ?", id)).toEqual([]);
    expect(queryServer(org.server, "SELECT 1 FROM message_flags WHERE message_id = ?", id)).toEqual([]);
  });

  test("guests and moderators may delete their own messages by default", async () => {
    for (const person of [org.guest, org.moderator]) {
      const id = await post(person);
      ok(await remove(person, id));
      expect(exists(id)).toBe(false);
    }
  });

  test("a bot's owner deletes the bot's messages", async () => {
    const id = await post(org.bot);
    await expectRefused(id, remove(org.member2, id), NO_PERMISSION);
    ok(await remove(org.member, id));
    expect(exists(id)).toBe(false);
  });

  test("others' messages: refused for members, guests, moderators and bots; administrators and owners delete anything", async () => {
    const id = await post(org.member2);
    for (const person of [org.member, org.guest, org.moderator, org.bot]) await expectRefused(id, remove(person, id), NO_PERMISSION);
    ok(await remove(org.admin, id));
    const other = await post(org.member2);
    ok(await remove(org.owner, other));
    expect(exists(id) || exists(other)).toBe(false);
  });

  test("can_delete_any_message_group decides who deletes anything", async () => {
    const admins = systemGroupId(org.server, "role:administrators");
    setRealmSetting(org.server, "can_delete_any_message_group", systemGroupId(org.server, "role:moderators"));
    try {
      const id = await post(org.member2);
      ok(await remove(org.moderator, id));
      expect(exists(id)).toBe(false);
    } finally {
      setRealmSetting(org.server, "can_delete_any_message_group", admins);
    }
  });

  test("can_delete_own_message_group can take deleting one's own messages away", async () => {
    const everyone = systemGroupId(org.server, "role:everyone");
    setRealmSetting(org.server, "can_delete_own_message_group", systemGroupId(org.server, "role:moderators"));
    try {
      const id = await post(org.member);
      await expectRefused(id, remove(org.member, id), NO_PERMISSION);
      const moderators = await post(org.moderator);
      ok(await remove(org.moderator, moderators));
    } finally {
      setRealmSetting(org.server, "can_delete_own_message_group", everyone);
    }
  });

  test("message_content_delete_limit_seconds: own messages only while young; administrators are not limited", async () => {
    setRealmSetting(org.server, "message_content_delete_limit_seconds", 600);
    try {
      const young = await post(org.member);
      makeOld(young, 500);
      ok(await remove(org.member, young));
      const old = await post(org.member);
      makeOld(old, 700);
      await expectRefused(old, remove(org.member, old), "The time limit for deleting this message has passed");
      ok(await remove(org.admin, old));
    } finally {
      setRealmSetting(org.server, "message_content_delete_limit_seconds", null);
    }
  });
});

describe("messages one cannot reach", () => {
  test("unknown IDs, others' direct messages, private channels, archived channels: Invalid message(s)", async () => {
    expect(await remove(org.admin, 987_654)).toMatchObject({ status: 400, body: { code: "BAD_REQUEST", msg: "Invalid message(s)" } });
    const dm = (await sendOk(org.member, directMessage([org.member2.id], "private words"))).id;
    await expectRefused(dm, remove(org.admin, dm), "Invalid message(s)");
    const secretName = uniqueName("secret");
    await createChannel(org, org.member2, { invite_only: true }, secretName);
    const secret = await post(org.member2, "secret", secretName);
    await expectRefused(secret, remove(org.owner, secret), "Invalid message(s)");
    const archivedName = uniqueName("archived");
    const archivedId = await createChannel(org, org.admin, {}, archivedName);
    const archived = await post(org.admin, "old news", archivedName);
    ok(await org.admin.api.delete(`/streams/${archivedId}`));
    await expectRefused(archived, remove(org.admin, archived), "Invalid message(s)");
  });

  test("a participant deletes their own direct message", async () => {
    const dm = (await sendOk(org.member, directMessage([org.member2.id], "oops"))).id;
    await expectRefused(dm, remove(org.member2, dm), NO_PERMISSION);
    ok(await remove(org.member, dm));
    expect(exists(dm)).toBe(false);
  });

  test("bad IDs are a 400; deleting twice says the message is gone", async () => {
    expectError(await remove(org.member, "abc"), "BAD_REQUEST");
    expectError(await remove(org.member, "1.5"), "BAD_REQUEST");
    const id = await post(org.member);
    ok(await remove(org.member, id));
    expect((await remove(org.member, id)).body.msg).toBe("Invalid message(s)");
  });
});

describe("events", () => {
  async function queues(people: Person[], bulk: boolean) {
    const result = new Map<Person, string>();
    for (const person of people) {
      result.set(person, (await register(person, { event_types: ["delete_message", "stream"], client_capabilities: { bulk_message_deletion: bulk } })).queue_id);
    }
    return result;
  }

  test("bulk_message_deletion clients get message_ids; others get message_id; subscribers and the deleter only", async () => {
    const id = await post(org.member, "going", channelName, "Event Topic");
    const bulk = await queues([org.member, org.member2, org.admin, org.owner], true);
    const single = await queues([org.member, org.guest], false);
    ok(await remove(org.admin, id));
    const expected = { type: "delete_message", message_type: "stream", stream_id: channelId, topic: "Event Topic" };
    for (const person of [org.member, org.member2, org.admin]) {
      expect(await pendingOf(person, bulk.get(person)!, ["delete_message"])).toEqual([{ ...expected, message_ids: [id], id: expect.any(Number) }]);
    }
    for (const person of [org.member, org.guest]) {
      expect(await pendingOf(person, single.get(person)!, ["delete_message"])).toEqual([{ ...expected, message_id: id, id: expect.any(Number) }]);
    }
    expect(await pendingOf(org.owner, bulk.get(org.owner)!, ["delete_message"])).toEqual([]);
  });

  test("clients without empty_topic_name see the empty topic's display name", async () => {
    const id = await post(org.member, "gone", channelName, "");
    const legacy = (await register(org.member, { event_types: ["delete_message"], client_capabilities: { bulk_message_deletion: true } })).queue_id;
    const modern = (await register(org.member, { event_types: ["delete_message"], client_capabilities: { bulk_message_deletion: true, empty_topic_name: true } })).queue_id;
    ok(await remove(org.member, id));
    expect((await pendingOf(org.member, legacy, ["delete_message"]))[0]).toMatchObject({ message_ids: [id], topic: "general chat" });
    expect((await pendingOf(org.member, modern, ["delete_message"]))[0]).toMatchObject({ message_ids: [id], topic: "" });
  });

  test("a direct message's deletion goes to its participants only, as message_type private", async () => {
    const dm = (await sendOk(org.member, directMessage([org.member2.id], "whisper"))).id;
    const bulk = await queues([org.member, org.member2, org.admin], true);
    ok(await remove(org.member, dm));
    for (const person of [org.member, org.member2]) {
      expect(await pendingOf(person, bulk.get(person)!, ["delete_message"])).toEqual([{ type: "delete_message", message_type: "private", message_ids: [dm], id: expect.any(Number) }]);
    }
    expect(await pendingOf(org.admin, bulk.get(org.admin)!, ["delete_message"])).toEqual([]);
  });

  test("deleting a channel's first message moves first_message_id on, and says so to everyone who knows the channel", async () => {
    const name = uniqueName("firsts");
    const id = await createChannel(org, org.member, { principals: [org.member.id] }, name);
    const [{ first_message_id: first }] = queryServer<{ first_message_id: number }>(org.server, "SELECT first_message_id FROM channels WHERE id = ?", id);
    const second = await post(org.member, "second", name);
    const watching = await queues([org.member, org.member2, org.guest], true);
    ok(await remove(org.admin, first));
    const update = { type: "stream", op: "update", stream_id: id, name, property: "first_message_id", value: second };
    for (const person of [org.member, org.member2]) {
      expect((await pendingOf(person, watching.get(person)!, ["stream"])).map(({ id: _, ...event }) => event)).toEqual([update]);
    }
    expect(await pendingOf(org.guest, watching.get(org.guest)!, ["stream"])).toEqual([]);
    expect(queryServer(org.server, "SELECT first_message_id FROM channels WHERE id = ?", id)).toEqual([{ first_message_id: second }]);

    ok(await remove(org.member, second));
    expect(queryServer(org.server, "SELECT first_message_id FROM channels WHERE id = ?", id)).toEqual([{ first_message_id: null }]);
    const last = await pendingOf(org.member2, watching.get(org.member2)!, ["stream"]);
    expect(last.at(-1)).toMatchObject({ property: "first_message_id", value: null });
  });

  test("messages sent together into an emptied channel set first_message_id once, to the first of them", async () => {
    const name = uniqueName("refill");
    const id = await createChannel(org, org.member, { principals: [org.member.id] }, name);
    const [{ first_message_id: announcement }] = queryServer<{ first_message_id: number }>(org.server, "SELECT first_message_id FROM channels WHERE id = ?", id);
    ok(await remove(org.admin, announcement));
    const watching = await queues([org.member2], true);
    // Sent in one burst, so they share one transaction (group commit).
    const ids = (await Promise.all(["one", "two", "three", "four"].map((content) => post(org.member, content, name)))).sort((a, b) => a - b);
    const first = { type: "stream", op: "update", stream_id: id, name, property: "first_message_id", value: ids[0] };
    expect((await pendingOf(org.member2, watching.get(org.member2)!, ["stream"])).map(({ id: _, ...event }) => event)).toEqual([first]);
    expect(queryServer(org.server, "SELECT first_message_id FROM channels WHERE id = ?", id)).toEqual([{ first_message_id: ids[0] }]);
    // Later sends see the channel as it is now, and say nothing more.
    await post(org.member, "five", name);
    expect(await pendingOf(org.member2, watching.get(org.member2)!, ["stream"])).toHaveLength(1);
  });

  test("deleting a later message leaves first_message_id alone and sends no stream event", async () => {
    const id = await post(org.member);
    const watching = await queues([org.member], true);
    ok(await remove(org.member, id));
    expect(await pendingOf(org.member, watching.get(org.member)!, ["stream"])).toEqual([]);
  });

  test("a refused deletion sends nothing", async () => {
    const id = await post(org.member2);
    const watching = await queues([org.member2], true);
    expectError(await remove(org.member, id), "BAD_REQUEST");
    ok(await org.member2.api.get(`/messages/${id}`));
    // An accepted deletion afterwards: once it is queued, anything the refused one sent would be too.
    const marker = await post(org.member2);
    ok(await remove(org.member2, marker));
    expect(await pendingOf(org.member2, watching.get(org.member2)!, ["delete_message", "stream"])).toMatchObject([{ type: "delete_message", message_ids: [marker] }]);
  });
});
