import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, subscribe, uniqueName } from "../helpers/channels";
import { expectError, ok, type Org, type Person, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";

/**
 * POST /messages/flags and /messages/flags/narrow, mark_all/stream/topic_as_read, and how
 * read state shows in GET /messages, unread_msgs and starred_messages.
 */

let org: Org;
let channel: string;
let channelId: number;

const flagsOf = async (person: Person, id: number) => ok(await person.api.get(`/messages/${id}`)).message.flags as string[];
const setFlag = (person: Person, messages: number[], op: string, flag: string) => person.api.post("/messages/flags", { messages, op, flag });
async function unreadMsgs(person: Person) {
  return ok(await person.api.post("/register", { fetch_event_types: ["message", "update_message_flags", "starred_messages"] }));
}
async function unreadIds(person: Person): Promise<number[]> {
  const { unread_msgs } = await unreadMsgs(person);
  const all = [...unread_msgs.streams, ...unread_msgs.pms, ...unread_msgs.huddles].flatMap((entry: { unread_message_ids: number[] }) => entry.unread_message_ids);
  return all.sort((a: number, b: number) => a - b);
}
/** The exception rows a user has, as (message ID, bits). */
const flagRows = (person: Person) => queryServer<{ message_id: number; flags: number }>(org.server, "SELECT message_id, flags FROM message_flags WHERE user_id = ? ORDER BY message_id", person.id);

async function sendMany(count: number, topic = "t", to = channel): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await sendOk(org.member, channelMessage(to, topic, `message ${i}`))).id);
  return ids;
}

beforeAll(async () => {
  org = await seedOrg();
  channel = uniqueName("flags");
  channelId = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.moderator.id] }, channel);
  ok(await org.member2.api.post("/mark_all_as_read", {}));
  ok(await org.moderator.api.post("/mark_all_as_read", {}));
}, 60_000);
afterAll(() => org.server.dispose());

describe("starred", () => {
  test("add and remove show in flags, is:starred and starred_messages", async () => {
    const [id, other] = await sendMany(2);
    const added = ok(await setFlag(org.member2, [id], "add", "starred"));
    expect(added.messages).toEqual([id]);
    expect(await flagsOf(org.member2, id)).toContain("starred");
    expect(await flagsOf(org.member2, other)).not.toContain("starred");
    expect(await flagsOf(org.moderator, id)).not.toContain("starred");
    expect((await unreadMsgs(org.member2)).starred_messages).toEqual([id]);
    ok(await setFlag(org.member2, [id], "remove", "starred"));
    expect(await flagsOf(org.member2, id)).not.toContain("starred");
    expect((await unreadMsgs(org.member2)).starred_messages).toEqual([]);
  });
});

describe("read", () => {
  test("new messages are unread for others; marking read and unread shows everywhere", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const ids = await sendMany(3);
    expect(await unreadIds(org.member2)).toEqual(ids);
    ok(await setFlag(org.member2, [ids[1]], "add", "read"));
    expect(await flagsOf(org.member2, ids[1])).toEqual(["read"]);
    expect(await unreadIds(org.member2)).toEqual([ids[0], ids[2]]);
    ok(await setFlag(org.member2, [ids[0], ids[2]], "add", "read"));
    expect(await unreadIds(org.member2)).toEqual([]);
    const removed = ok(await setFlag(org.member2, [ids[0]], "remove", "read"));
    expect(removed).toMatchObject({ messages: [ids[0]], ignored_because_not_subscribed_channels: [] });
    expect(await flagsOf(org.member2, ids[0])).toEqual([]);
    expect(await unreadIds(org.member2)).toEqual([ids[0]]);
    ok(await setFlag(org.member2, [ids[0]], "add", "read"));
  });

  test("reading a conversation to its end leaves no exception rows behind", async () => {
    ok(await org.moderator.api.post("/mark_all_as_read", {}));
    const ids = await sendMany(4);
    ok(await setFlag(org.moderator, [ids[2], ids[3]], "add", "read"));
    expect(flagRows(org.moderator).map((row) => row.message_id)).toEqual([ids[2], ids[3]]);
    ok(await setFlag(org.moderator, [ids[0], ids[1]], "add", "read"));
    expect(flagRows(org.moderator)).toEqual([]);
    expect(await unreadIds(org.moderator)).toEqual([]);
  });

  test("unread_msgs groups channel, one-to-one and group conversations, and mentions", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const [topicMessage] = await sendMany(1, "Grouped");
    const mention = (await sendOk(org.member, channelMessage(channel, "Grouped", "hey @**Max Member**"))).id;
    const dm = (await sendOk(org.member, directMessage([org.member2.id], "psst"))).id;
    const group = (await sendOk(org.member, directMessage([org.member2.id, org.moderator.id], "all three"))).id;
    const { unread_msgs } = await unreadMsgs(org.member2);
    expect(unread_msgs).toEqual({
      count: 4,
      streams: [{ stream_id: channelId, topic: "Grouped", unread_message_ids: [topicMessage, mention] }],
      pms: [{ other_user_id: org.member.id, sender_id: org.member.id, unread_message_ids: [dm] }],
      huddles: [{ user_ids_string: [org.member.id, org.member2.id, org.moderator.id].sort((a, b) => a - b).join(","), unread_message_ids: [group] }],
      mentions: [mention],
      old_unreads_missing: false,
    });
  });

  test("the empty topic is listed by its display name unless the client handles it", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const id = (await sendOk(org.member, channelMessage(channel, "", "no topic"))).id;
    const legacy = ok(await org.member2.api.post("/register", { fetch_event_types: ["message", "update_message_flags"] }));
    expect(legacy.unread_msgs.streams).toEqual([{ stream_id: channelId, topic: "general chat", unread_message_ids: [id] }]);
    const modern = ok(await org.member2.api.post("/register", { fetch_event_types: ["message", "update_message_flags"], client_capabilities: { empty_topic_name: true } }));
    expect(modern.unread_msgs.streams).toEqual([{ stream_id: channelId, topic: "", unread_message_ids: [id] }]);
  });

  test("muted channels are left out of the count but listed", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const [id] = await sendMany(1);
    ok(await org.member2.api.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: channelId, property: "is_muted", value: true }] }));
    const { unread_msgs } = await unreadMsgs(org.member2);
    expect(unread_msgs.count).toBe(0);
    expect(unread_msgs.streams[0].unread_message_ids).toEqual([id]);
    ok(await org.member2.api.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: channelId, property: "is_muted", value: false }] }));
  });

  test("subscribing does not make old messages unread; leaving marks them read", async () => {
    const name = uniqueName("joinleave");
    await createChannel(org, org.member, {}, name);
    const [old] = await sendMany(1, "t", name);
    await subscribe(org.member2, [name]);
    expect(await flagsOf(org.member2, old)).toEqual(["read", "historical"]);
    const [fresh] = await sendMany(1, "t", name);
    expect(await unreadIds(org.member2)).toContain(fresh);
    ok(await org.member2.api.delete("/users/me/subscriptions", { subscriptions: [name] }));
    expect(await unreadIds(org.member2)).not.toContain(fresh);
    expect(await flagsOf(org.member2, fresh)).toEqual(["read"]);
    const removed = ok(await setFlag(org.member2, [fresh], "remove", "read"));
    expect(removed.ignored_because_not_subscribed_channels).toEqual([queryServer<{ id: number }>(org.server, "SELECT id FROM channels WHERE name = ?", name)[0].id]);
    expect(await flagsOf(org.member2, fresh)).toEqual(["read"]);
  });
});

describe("mark as read endpoints", () => {
  test("mark_all_as_read marks everything, direct messages included", async () => {
    await sendMany(2);
    await sendOk(org.member, directMessage([org.member2.id], "unread dm"));
    expect((await unreadIds(org.member2)).length).toBeGreaterThan(0);
    expect(ok(await org.member2.api.post("/mark_all_as_read", {}))).toMatchObject({ complete: true });
    expect(await unreadIds(org.member2)).toEqual([]);
    expect(flagRows(org.member2).filter((row) => row.flags & 3)).toEqual([]);
  });

  test("mark_stream_as_read marks one channel", async () => {
    const other = uniqueName("other");
    await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, other);
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const here = await sendMany(2);
    const there = await sendMany(1, "t", other);
    ok(await org.member2.api.post("/mark_stream_as_read", { stream_id: channelId }));
    expect(await unreadIds(org.member2)).toEqual(there);
    expect(await flagsOf(org.member2, here[0])).toEqual(["read"]);
  });

  test("mark_topic_as_read marks one topic, whatever its case", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const inTopic = await sendMany(2, "Lunch");
    const elsewhere = await sendMany(1, "Dinner");
    ok(await org.member2.api.post("/mark_topic_as_read", { stream_id: channelId, topic_name: "lunch" }));
    expect(await unreadIds(org.member2)).toEqual(elsewhere);
    expect(await flagsOf(org.member2, inTopic[1])).toEqual(["read"]);
  });

  test("refusals", async () => {
    expectError(await org.member2.api.post("/mark_stream_as_read", { stream_id: 999_999 }), "BAD_REQUEST");
    expectError(await org.member2.api.post("/mark_stream_as_read", {}), "BAD_REQUEST");
    const noTopic = await org.member2.api.post("/mark_topic_as_read", { stream_id: channelId, topic_name: "never used" });
    expectError(noTopic, "BAD_REQUEST");
    expect(noTopic.body.msg).toBe("No such topic 'never used'");
    const secret = uniqueName("secret");
    const secretId = await createChannel(org, org.member, { invite_only: true }, secret);
    expectError(await org.member2.api.post("/mark_stream_as_read", { stream_id: secretId }), "BAD_REQUEST");
    expectError(await org.guest.api.post("/mark_topic_as_read", { stream_id: secretId, topic_name: "x" }), "BAD_REQUEST");
  });
});

describe("refused flag changes change nothing", () => {
  let ids: number[];
  beforeAll(async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    ids = await sendMany(2);
  });

  const refusals: Array<[string, () => Record<string, unknown>, RegExp]> = [
    ["an unknown flag", () => ({ messages: [ids[0]], op: "add", flag: "sparkly" }), /^Invalid flag: 'sparkly'$/],
    ["a flag named like an object property", () => ({ messages: [ids[0]], op: "add", flag: "toString" }), /^Invalid flag: 'toString'$/],
    ["a flag that follows from the message", () => ({ messages: [ids[0]], op: "add", flag: "mentioned" }), /^Flag not editable: 'mentioned'$/],
    ["historical", () => ({ messages: [ids[0]], op: "remove", flag: "historical" }), /^Flag not editable: 'historical'$/],
    ["an unknown operation", () => ({ messages: [ids[0]], op: "toggle", flag: "read" }), /^Invalid message flag operation: 'toggle'$/],
    ["an unknown message among known ones", () => ({ messages: [ids[0], 999_999], op: "add", flag: "read" }), /^Invalid message\(s\)$/],
    ["messages that are not a JSON list", () => ({ messages: "[1,", op: "add", flag: "read" }), /messages/],
    ["message IDs that are not integers", () => ({ messages: ["a"], op: "add", flag: "read" }), /messages/],
    ["no op", () => ({ messages: [ids[0]], flag: "read" }), /op/],
  ];
  for (const [name, params, message] of refusals) {
    test(name, async () => {
      const before = flagRows(org.member2);
      const response = await org.member2.api.post("/messages/flags", params());
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toMatch(message);
      expect(flagRows(org.member2)).toEqual(before);
      expect(await unreadIds(org.member2)).toEqual(ids);
    });
  }

  test("other people's direct messages are invalid messages, for every role", async () => {
    const dm = (await sendOk(org.member, directMessage([org.member2.id], "private"))).id;
    for (const person of [org.owner, org.admin, org.moderator, org.guest, org.bot]) {
      const response = await setFlag(person, [dm], "add", "starred");
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("Invalid message(s)");
    }
    expect(queryServer(org.server, "SELECT * FROM message_flags WHERE message_id = ? AND (flags & 4) <> 0", dm)).toEqual([]);
  });
});

describe("POST /messages/flags/narrow", () => {
  test("marks a range of a narrow and reports it", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const ids = await sendMany(4, "ranged");
    const body = ok(
      await org.member2.api.post("/messages/flags/narrow", {
        anchor: "oldest",
        num_before: 0,
        num_after: 2,
        narrow: [{ operator: "channel", operand: channelId }, { operator: "topic", operand: "ranged" }],
        op: "add",
        flag: "read",
      }),
    );
    expect(body).toMatchObject({ processed_count: 2, updated_count: 2, first_processed_id: ids[0], last_processed_id: ids[1], found_oldest: true, found_newest: false });
    expect(await unreadIds(org.member2)).toEqual(ids.slice(2));
    const rest = ok(
      await org.member2.api.post("/messages/flags/narrow", {
        anchor: ids[1],
        include_anchor: false,
        num_before: 0,
        num_after: 10,
        narrow: [{ operator: "is", operand: "unread" }],
        op: "add",
        flag: "read",
      }),
    );
    expect(rest).toMatchObject({ processed_count: 2, updated_count: 2, found_newest: true });
    expect(await unreadIds(org.member2)).toEqual([]);
  });

  test("an empty range reports nulls", async () => {
    const body = ok(
      await org.member2.api.post("/messages/flags/narrow", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "is", operand: "unread" }], op: "add", flag: "read" }),
    );
    expect(body).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null, found_oldest: true, found_newest: true });
  });

  test("refuses bad flags and narrows", async () => {
    expectError(await org.member2.api.post("/messages/flags/narrow", { anchor: "newest", num_before: 1, num_after: 0, narrow: [], op: "add", flag: "mentioned" }), "BAD_REQUEST");
    expectError(await org.member2.api.post("/messages/flags/narrow", { anchor: "newest", num_before: 1, num_after: 0, narrow: "[[", op: "add", flag: "read" }), "BAD_REQUEST");
    expectError(await org.member2.api.post("/messages/flags/narrow", { anchor: "nope", num_before: 1, num_after: 0, narrow: [], op: "add", flag: "read" }), "BAD_REQUEST");
    const huge = await org.member2.api.post("/messages/flags/narrow", { anchor: "newest", num_before: 1, num_after: 0, narrow: `[${'["search","x"],'.repeat(10_000)}]`, op: "add", flag: "read" });
    expectError(huge, "BAD_REQUEST");
    expect(huge.body.msg).toMatch(/narrow/);
  });
});
