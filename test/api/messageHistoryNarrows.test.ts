import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, uniqueName } from "../helpers/channels";
import { editServerDatabase } from "../helpers/inProcess";
import { expectError, ok, type Org, type Person, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";

/** Every narrow operator of GET /messages, positive and negated, in both term forms. */

let org: Org;
let channelA: string;
let channelAId: number;
let channelB: string;
let channelBId: number;
const m: Record<string, number> = {};

async function find(person: Person, narrow: unknown[]): Promise<number[]> {
  const body = ok(await person.api.get("/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow }));
  return body.messages.map((message: { id: number }) => message.id);
}
const term = (operator: string, operand: unknown, negated = false) => ({ operator, operand, negated });
/** The messages of this test among the results (channel notices and the like left out). */
const ours = (ids: number[]) => ids.filter((id) => Object.values(m).includes(id));
const names = (ids: number[]) =>
  ours(ids)
    .map((id) => Object.entries(m).find(([, value]) => value === id)![0])
    .sort();

beforeAll(async () => {
  org = await seedOrg();
  channelA = uniqueName("alpha-channel");
  channelB = uniqueName("beta-channel");
  channelAId = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, channelA);
  channelBId = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, channelB);
  m.a1 = (await sendOk(org.member, channelMessage(channelA, "alpha", "hello world https://example.com"))).id;
  m.a2 = (await sendOk(org.member2, channelMessage(channelA, "Beta", "hi @**Mel Member**"))).id;
  m.a3 = (await sendOk(org.member, channelMessage(channelA, "✔ done", "all sorted"))).id;
  m.b1 = (await sendOk(org.member2, channelMessage(channelB, "ALPHA", "other channel"))).id;
  m.d1 = (await sendOk(org.member, directMessage([org.member2.id], "one to one"))).id;
  m.d2 = (await sendOk(org.member, directMessage([org.member2.id, org.moderator.id], "group"))).id;
  m.d3 = (await sendOk(org.member, directMessage([org.member.id], "note to self"))).id;
  m.d4 = (await sendOk(org.moderator, directMessage([org.member.id], "from the moderator"))).id;
}, 60_000);
afterAll(() => org.server.dispose());

describe("channel, channels, topic", () => {
  test("channel by name, by ID, by legacy pair, and negated", async () => {
    expect(names(await find(org.member, [term("channel", channelA)]))).toEqual(["a1", "a2", "a3"]);
    expect(names(await find(org.member, [term("channel", channelAId)]))).toEqual(["a1", "a2", "a3"]);
    expect(names(await find(org.member, [["stream", channelA]]))).toEqual(["a1", "a2", "a3"]);
    expect(names(await find(org.member, [["stream", String(channelAId)]]))).toEqual(["a1", "a2", "a3"]);
    expect(names(await find(org.member, [term("channel", channelA, true)]))).toEqual(["b1", "d1", "d2", "d3", "d4"]);
  });

  test("an unknown channel is an error naming it", async () => {
    const response = await org.member.api.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [term("channel", "no-such-channel")] });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("Invalid narrow operator: unknown channel no-such-channel");
  });

  test("channels:public and channels:web-public", async () => {
    expect(names(await find(org.member, [term("channels", "public")]))).toEqual(["a1", "a2", "a3", "b1"]);
    expect(names(await find(org.member, [term("channels", "public", true)]))).toEqual(["d1", "d2", "d3", "d4"]);
    expect(names(await find(org.member, [term("channels", "web-public")]))).toEqual([]);
  });

  test("topics match whatever their case, alone or in a channel, and negated", async () => {
    expect(names(await find(org.member, [term("topic", "alpha")]))).toEqual(["a1", "b1"]);
    expect(names(await find(org.member, [term("channel", channelA), term("topic", "ALPHA")]))).toEqual(["a1"]);
    expect(names(await find(org.member, [["subject", "beta"]]))).toEqual(["a2"]);
    expect(names(await find(org.member, [term("channel", channelA), term("topic", "alpha", true)]))).toEqual(["a2", "a3"]);
  });
});

describe("people and conversations", () => {
  test("sender by ID and by address, and negated", async () => {
    expect(names(await find(org.member, [term("sender", org.member2.id)]))).toEqual(["a2", "b1"]);
    expect(names(await find(org.member, [["sender", org.member2.email]]))).toEqual(["a2", "b1"]);
    expect(names(await find(org.member, [term("sender", org.member.id, true)]))).toEqual(["a2", "b1", "d4"]);
  });

  test("dm: exactly one conversation, by IDs or addresses, old name too", async () => {
    expect(names(await find(org.member, [term("dm", [org.member2.id])]))).toEqual(["d1"]);
    expect(names(await find(org.member, [["dm", org.member2.email]]))).toEqual(["d1"]);
    expect(names(await find(org.member, [["pm-with", `${org.member2.email},${org.member.email}`]]))).toEqual(["d1"]);
    expect(names(await find(org.member, [term("dm", [org.member2.id, org.moderator.id])]))).toEqual(["d2"]);
    expect(names(await find(org.member, [term("dm", [org.member.id])]))).toEqual(["d3"]);
    expect(names(await find(org.member, [term("dm", [org.member2.id], true)]))).toEqual(["a1", "a2", "a3", "b1", "d2", "d3", "d4"]);
  });

  test("dm-including: every conversation with that person", async () => {
    expect(names(await find(org.member, [term("dm-including", org.moderator.id)]))).toEqual(["d2", "d4"]);
    expect(names(await find(org.member, [["group-pm-with", org.moderator.email]]))).toEqual(["d2", "d4"]);
    expect(names(await find(org.member, [term("dm-including", org.member.id)]))).toEqual(["d1", "d2", "d3", "d4"]);
    expect(names(await find(org.member, [term("is", "dm"), term("dm-including", org.moderator.id, true)]))).toEqual(["d1", "d3"]);
  });

  test("unknown people are errors", async () => {
    for (const narrow of [[term("sender", "nobody@example.com")], [term("dm", [999_999])], [term("dm-including", 999_999)]]) {
      const response = await org.member.api.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toMatch(/^Invalid narrow operator: unknown user/);
    }
  });
});

describe("id, is, has, in", () => {
  test("id, and negated", async () => {
    expect(await find(org.member, [term("id", m.a2)])).toEqual([m.a2]);
    expect(await find(org.member, [["id", String(m.a2)]])).toEqual([m.a2]);
    expect(names(await find(org.member, [term("id", m.a2, true)]))).not.toContain("a2");
  });

  test("is:dm and is:private, and negated", async () => {
    expect(names(await find(org.member, [term("is", "dm")]))).toEqual(["d1", "d2", "d3", "d4"]);
    expect(names(await find(org.member, [["is", "private"]]))).toEqual(["d1", "d2", "d3", "d4"]);
    expect(names(await find(org.member, [term("is", "dm", true)]))).toEqual(["a1", "a2", "a3", "b1"]);
  });

  test("is:starred", async () => {
    ok(await org.member.api.post("/messages/flags", { messages: [m.a1, m.d4], op: "add", flag: "starred" }));
    expect(names(await find(org.member, [term("is", "starred")]))).toEqual(["a1", "d4"]);
    expect(names(await find(org.member, [term("is", "starred", true)]))).toEqual(["a2", "a3", "b1", "d1", "d2", "d3"]);
    expect(names(await find(org.member2, [term("is", "starred")]))).toEqual([]);
  });

  test("is:mentioned", async () => {
    expect(names(await find(org.member, [term("is", "mentioned")]))).toEqual(["a2"]);
    expect(names(await find(org.member2, [term("is", "mentioned")]))).toEqual([]);
  });

  test("is:unread, and negated", async () => {
    ok(await org.member.api.post("/mark_all_as_read", {}));
    m.u1 = (await sendOk(org.member2, channelMessage(channelB, "fresh", "new and unread"))).id;
    expect(names(await find(org.member, [term("is", "unread")]))).toEqual(["u1"]);
    expect(names(await find(org.member, [term("is", "unread", true)]))).not.toContain("u1");
    expect(names(await find(org.member, [term("channel", channelA), term("is", "unread")]))).toEqual([]);
  });

  test("is:alerted finds nothing without alert words", async () => {
    expect(names(await find(org.member, [term("is", "alerted")]))).toEqual([]);
  });

  test("is:resolved, and negated", async () => {
    expect(names(await find(org.member, [term("is", "resolved")]))).toEqual(["a3"]);
    expect(names(await find(org.member, [term("channel", channelA), term("is", "resolved", true)]))).toEqual(["a1", "a2"]);
  });

  test("has:link, has:image, has:attachment", async () => {
    expect(names(await find(org.member, [term("has", "link")]))).toEqual(["a1"]);
    expect(names(await find(org.member, [term("channel", channelA), term("has", "link", true)]))).toEqual(["a2", "a3"]);
    expect(names(await find(org.member, [term("has", "image")]))).toEqual([]);
    expect(names(await find(org.member, [term("has", "attachment")]))).toEqual([]);
  });

  test("has:reaction", async () => {
    editServerDatabase(org.server, "INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES (?, ?, 'smile', '1f604', 'unicode_emoji')", m.a3, org.member2.id);
    expect(names(await find(org.member, [term("has", "reaction")]))).toEqual(["a3"]);
    expect(names(await find(org.member, [term("channel", channelA), term("has", "reaction", true)]))).toEqual(["a1", "a2"]);
  });

  test("is:followed and is:muted follow the user's topic policies", async () => {
    // No endpoint sets topic policies yet; they are written as that endpoint would store them,
    // replacing those sending set automatically.
    editServerDatabase(org.server, "DELETE FROM user_topics WHERE user_id = ?", org.member.id);
    const policy = (topic: string, value: number) =>
      editServerDatabase(org.server, "INSERT INTO user_topics (user_id, channel_id, topic_key, topic, visibility_policy, last_updated) VALUES (?, ?, ?, ?, ?, 0)", org.member.id, channelAId, topic.toLowerCase(), topic, value);
    policy("alpha", 3);
    policy("Beta", 1);
    try {
      expect(names(await find(org.member, [term("is", "followed")]))).toEqual(["a1"]);
      expect(names(await find(org.member, [term("is", "muted")]))).toEqual(["a2"]);
      expect(names(await find(org.member, [term("channel", channelA), term("is", "muted", true)]))).toEqual(["a1", "a3"]);
      expect(names(await find(org.member, [term("in", "home")]))).not.toContain("a2");
      // member2 follows the topics they started (sending did that), not member's.
      expect(names(await find(org.member2, [term("is", "followed")]))).toEqual(["a2", "b1", "u1"]);
    } finally {
      editServerDatabase(org.server, "DELETE FROM user_topics WHERE user_id = ?", org.member.id);
    }
  });

  test("in:home leaves out muted channels; in:all does not", async () => {
    ok(await org.member.api.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: channelBId, property: "is_muted", value: true }] }));
    expect(names(await find(org.member, [term("in", "home")]))).not.toContain("b1");
    expect(names(await find(org.member, [term("in", "home")]))).toContain("a1");
    expect(names(await find(org.member, [term("in", "all")]))).toContain("b1");
    expect(names(await find(org.member, [term("in", "home", true)]))).toEqual(["b1", "u1"]);
  });
});

describe("with", () => {
  test("means the conversation the message is in, replacing channel, topic and dm terms", async () => {
    expect(names(await find(org.member, [term("channel", channelB), term("with", m.a1)]))).toEqual(["a1"]);
    expect(names(await find(org.member, [term("with", m.d1)]))).toEqual(["d1"]);
    expect(names(await find(org.member, [term("with", m.d2), term("sender", org.member.id)]))).toEqual(["d2"]);
  });

  test("a message the user may not read leaves the narrow as it was", async () => {
    expect(names(await find(org.admin, [term("is", "dm"), term("with", m.d1)]))).toEqual([]);
    expect(names(await find(org.member2, [term("channel", channelB), term("with", m.d4)]))).toEqual(["b1", "u1"]);
  });

  test("two with terms are an error", async () => {
    const response = await org.member.api.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [term("with", m.a1), term("with", m.a2)] });
    expectError(response, "BAD_REQUEST");
  });
});

describe("combinations", () => {
  test("terms are all required", async () => {
    expect(names(await find(org.member, [term("channel", channelA), term("sender", org.member.id), term("has", "link")]))).toEqual(["a1"]);
    expect(names(await find(org.member, [term("is", "dm"), term("sender", org.moderator.id), term("is", "starred")]))).toEqual(["d4"]);
  });
});
