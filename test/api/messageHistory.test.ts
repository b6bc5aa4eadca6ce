import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, uniqueName } from "../helpers/channels";
import { expectError, ok, type Org, type Person, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";

/** GET /messages: anchors and ranges, parameters and formats, GET /messages/{id}. */

let org: Org;
let channel: string;
let ids: number[];
let dmId: number;

const LARGER_THAN_MAX = 10_000_000_000_000_000;
// The topic too: creating the channel posted a notice in it.
const inChannel = () => [{ operator: "channel", operand: channel }, { operator: "topic", operand: "range" }];

async function fetchMessages(person: Person, params: Record<string, unknown>) {
  return ok(await person.api.get("/messages", params));
}
const idsOf = (body: Record<string, any>): number[] => body.messages.map((message: { id: number }) => message.id);

beforeAll(async () => {
  org = await seedOrg();
  channel = uniqueName("history");
  await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, channel);
  ids = [];
  for (let i = 0; i < 5; i++) ids.push((await sendOk(org.member, channelMessage(channel, "range", `message **${i}**`))).id);
  dmId = (await sendOk(org.member, directMessage([org.member2.id], "a direct one"))).id;
}, 60_000);

afterAll(() => org.server.dispose());

describe("anchors and ranges", () => {
  test("newest: the last num_before messages, anchor reported as the largest ID", async () => {
    const body = await fetchMessages(org.member2, { anchor: "newest", num_before: 3, num_after: 0, narrow: inChannel() });
    expect(idsOf(body)).toEqual(ids.slice(2));
    expect(body).toMatchObject({ anchor: LARGER_THAN_MAX, found_anchor: false, found_newest: true, found_oldest: false, history_limited: false });
  });

  test("asking for exactly as many as exist finds the oldest", async () => {
    const body = await fetchMessages(org.member2, { anchor: "newest", num_before: 5, num_after: 0, narrow: inChannel() });
    expect(idsOf(body)).toEqual(ids);
    expect(body.found_oldest).toBe(true);
  });

  test("oldest: the first num_after messages, anchor 0", async () => {
    const body = await fetchMessages(org.member2, { anchor: "oldest", num_before: 0, num_after: 2, narrow: inChannel() });
    expect(idsOf(body)).toEqual(ids.slice(0, 2));
    expect(body).toMatchObject({ anchor: 0, found_anchor: false, found_oldest: true, found_newest: false });
  });

  test("an ID anchor in the middle, both sides", async () => {
    const body = await fetchMessages(org.member2, { anchor: ids[2], num_before: 1, num_after: 1, narrow: inChannel() });
    expect(idsOf(body)).toEqual(ids.slice(1, 4));
    expect(body).toMatchObject({ anchor: ids[2], found_anchor: true, found_oldest: false, found_newest: false });
  });

  test("include_anchor false leaves the anchor out", async () => {
    const body = await fetchMessages(org.member2, { anchor: ids[2], num_before: 1, num_after: 1, include_anchor: false, narrow: inChannel() });
    expect(idsOf(body)).toEqual([ids[1], ids[3]]);
    expect(body.found_anchor).toBe(false);
  });

  test("anchors at the edges find the oldest and the newest", async () => {
    const first = await fetchMessages(org.member2, { anchor: ids[0], num_before: 2, num_after: 0, narrow: inChannel() });
    expect(idsOf(first)).toEqual([ids[0]]);
    expect(first).toMatchObject({ found_anchor: true, found_oldest: true, found_newest: false });
    const last = await fetchMessages(org.member2, { anchor: ids[4], num_before: 0, num_after: 2, narrow: inChannel() });
    expect(idsOf(last)).toEqual([ids[4]]);
    expect(last).toMatchObject({ found_anchor: true, found_newest: true, found_oldest: false });
  });

  test("num_before 0 and num_after 0 still say whether more exist", async () => {
    const body = await fetchMessages(org.member2, { anchor: ids[0], num_before: 0, num_after: 0, narrow: inChannel() });
    expect(idsOf(body)).toEqual([ids[0]]);
    expect(body).toMatchObject({ found_oldest: true, found_newest: false });
  });

  test("an anchor that does not match the narrow is not found, but ranges around it work", async () => {
    const body = await fetchMessages(org.member2, { anchor: dmId, num_before: 2, num_after: 2, narrow: inChannel() });
    expect(idsOf(body)).toEqual(ids.slice(3));
    expect(body).toMatchObject({ found_anchor: false, found_newest: true });
  });

  test("anchors beyond the ends are clamped as in the reference", async () => {
    const big = await fetchMessages(org.member2, { anchor: "99999999999999999999", num_before: 1, num_after: 1, narrow: inChannel() });
    expect(big).toMatchObject({ anchor: LARGER_THAN_MAX, found_newest: true });
    expect(idsOf(big)).toEqual([ids[4]]);
    const negative = await fetchMessages(org.member2, { anchor: -5, num_before: 1, num_after: 1, narrow: inChannel() });
    expect(negative).toMatchObject({ anchor: 0, found_oldest: true });
    expect(idsOf(negative)).toEqual([ids[0]]);
  });

  test("a near term is the anchor when no anchor is given", async () => {
    const body = await fetchMessages(org.member2, { num_before: 1, num_after: 1, narrow: [...inChannel(), { operator: "near", operand: ids[1] }] });
    expect(body.anchor).toBe(ids[1]);
    expect(idsOf(body)).toEqual(ids.slice(0, 3));
  });

  test("history_limited is false: nothing is hidden for plan reasons", async () => {
    const body = await fetchMessages(org.member2, { anchor: "oldest", num_before: 0, num_after: 100, narrow: inChannel() });
    expect(body.history_limited).toBe(false);
    expect(body.found_oldest).toBe(true);
  });
});

describe("first_unread", () => {
  test("is the oldest unread message of the narrow, or newest when all are read", async () => {
    const reader = org.member2;
    const unread = await fetchMessages(reader, { anchor: "first_unread", num_before: 0, num_after: 1, narrow: inChannel() });
    expect(unread.anchor).toBe(ids[0]);
    ok(await reader.api.post("/messages/flags", { messages: [ids[0], ids[1]], op: "add", flag: "read" }));
    const after = await fetchMessages(reader, { anchor: "first_unread", num_before: 1, num_after: 1, narrow: inChannel() });
    expect(after.anchor).toBe(ids[2]);
    expect(idsOf(after)).toEqual(ids.slice(1, 4));
    const legacy = await fetchMessages(reader, { use_first_unread_anchor: true, num_before: 0, num_after: 0, narrow: inChannel() });
    expect(legacy.anchor).toBe(ids[2]);
    ok(await reader.api.post("/mark_stream_as_read", { stream_id: unread.messages[0].stream_id }));
    const none = await fetchMessages(reader, { anchor: "first_unread", num_before: 2, num_after: 2, narrow: inChannel() });
    expect(none).toMatchObject({ anchor: LARGER_THAN_MAX, found_newest: true });
    expect(idsOf(none)).toEqual(ids.slice(3));
  });
});

describe("refused parameters", () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ["an anchor that is not a number or keyword", { anchor: "bogus", num_before: 1, num_after: 1 }, /Invalid anchor/],
    ["no anchor", { num_before: 1, num_after: 1 }, /Missing 'anchor'/],
    ["no num_before", { anchor: "newest", num_after: 1 }, /num_before/],
    ["no num_after", { anchor: "newest", num_before: 1 }, /num_after/],
    ["a negative num_before", { anchor: "newest", num_before: -1, num_after: 0 }, /num_before/],
    ["a fractional num_after", { anchor: "newest", num_before: 0, num_after: 1.5 }, /num_after/],
    ["more than 5000 messages", { anchor: "newest", num_before: 4000, num_after: 1001 }, /Too many messages requested \(maximum 5000\)/],
    ["malformed narrow JSON", { anchor: "newest", num_before: 1, num_after: 0, narrow: "[{" }, /narrow/],
    ["an unknown operator", { anchor: "newest", num_before: 1, num_after: 0, narrow: [["frobnicate", "x"]] }, /unknown operator frobnicate/],
    ["message_ids with an anchor", { message_ids: [1], anchor: "newest" }, /Unsupported parameter combination/],
    ["message_ids that are not integers", { message_ids: ["x"] }, /message_ids/],
  ];
  for (const [name, params, message] of cases) {
    test(`${name} is a 400`, async () => {
      const response = await org.member.api.get("/messages", params);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toMatch(message);
    });
  }
});

describe("message format", () => {
  test("every field of spec 2.3, with flags", async () => {
    const [message] = (await fetchMessages(org.member2, { anchor: ids[0], num_before: 0, num_after: 0, narrow: inChannel() })).messages;
    expect(message).toMatchObject({
      id: ids[0],
      type: "stream",
      content: "<p>message <strong>0</strong></p>",
      content_type: "text/html",
      subject: "range",
      display_recipient: channel,
      sender_id: org.member.id,
      sender_full_name: "Mel Member",
      is_me_message: false,
      reactions: [],
      submessages: [],
      topic_links: [],
      flags: ["read"],
    });
    for (const field of ["stream_id", "recipient_id", "sender_email", "sender_realm_str", "avatar_url", "client", "timestamp"]) expect(message).toHaveProperty(field);
    expect(message).not.toHaveProperty("match_content");
  });

  test("apply_markdown false gives the Markdown source", async () => {
    const [message] = (await fetchMessages(org.member2, { anchor: ids[0], num_before: 0, num_after: 0, apply_markdown: false, narrow: inChannel() })).messages;
    expect(message).toMatchObject({ content: "message **0**", content_type: "text/x-markdown" });
  });

  test("client_gravatar false gives every sender's avatar URL", async () => {
    const body = await fetchMessages(org.member2, { anchor: ids[0], num_before: 0, num_after: 0, client_gravatar: false, narrow: inChannel() });
    expect(typeof body.messages[0].avatar_url).toBe("string");
  });

  test("the empty topic is shown by its display name unless the client handles it", async () => {
    const id = (await sendOk(org.member, channelMessage(channel, "", "no topic here"))).id;
    const legacy = await fetchMessages(org.member2, { anchor: id, num_before: 0, num_after: 0 });
    expect(legacy.messages[0].subject).toBe("general chat");
    const modern = await fetchMessages(org.member2, { anchor: id, num_before: 0, num_after: 0, allow_empty_topic_name: true });
    expect(modern.messages[0].subject).toBe("");
    const byDisplayName = await fetchMessages(org.member2, { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "channel", operand: channel }, { operator: "topic", operand: "general chat" }] });
    expect(idsOf(byDisplayName)).toEqual([id]);
  });

  test("direct messages list their participants", async () => {
    const [message] = (await fetchMessages(org.member2, { anchor: dmId, num_before: 0, num_after: 0 })).messages;
    expect(message.type).toBe("private");
    expect(message.subject).toBe("");
    expect(message.display_recipient.map((user: { id: number }) => user.id).sort()).toEqual([org.member.id, org.member2.id].sort());
    expect(message).not.toHaveProperty("stream_id");
  });
});

describe("message_ids", () => {
  test("returns the readable ones among the IDs, in order, without range fields", async () => {
    const body = await fetchMessages(org.member2, { message_ids: [ids[3], ids[1], 999_999, dmId] });
    expect(idsOf(body)).toEqual([ids[1], ids[3], dmId]);
    expect(body).not.toHaveProperty("anchor");
    const outsider = await fetchMessages(org.moderator, { message_ids: [dmId, ids[1]] });
    expect(idsOf(outsider)).toEqual([ids[1]]);
    expect(outsider.messages[0].flags).toEqual(["read", "historical"]);
  });

  test("a narrow filters them", async () => {
    const body = await fetchMessages(org.member2, { message_ids: [ids[1], dmId], narrow: [{ operator: "is", operand: "dm" }] });
    expect(idsOf(body)).toEqual([dmId]);
  });
});

describe("GET /messages/{message_id}", () => {
  test("returns the message with flags and its Markdown source", async () => {
    const body = ok(await org.member2.api.get(`/messages/${ids[0]}`));
    expect(body.raw_content).toBe("message **0**");
    expect(body.message).toMatchObject({ id: ids[0], content: "<p>message <strong>0</strong></p>", content_type: "text/html", flags: ["read"] });
    const raw = ok(await org.member2.api.get(`/messages/${ids[0]}`, { apply_markdown: false }));
    expect(raw.message).toMatchObject({ content: "message **0**", content_type: "text/x-markdown" });
  });

  test("unknown messages and other people's direct messages are both 'Invalid message(s)'", async () => {
    for (const [person, id] of [
      [org.member2, 999_999],
      [org.moderator, dmId],
      [org.guest, ids[0]],
    ] as const) {
      const response = await person.api.get(`/messages/${id}`);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("Invalid message(s)");
    }
  });

  test("a non-numeric ID is a 400", async () => {
    expectError(await org.member.api.get("/messages/abc"), "BAD_REQUEST");
  });
});
