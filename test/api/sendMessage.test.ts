import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, deactivateUser, setRealmSetting, uniqueName } from "../helpers/channels";
import { editServerDatabase } from "../helpers/inProcess";
import { type Org, expectError, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, messageCount, recipientMembers, send, sendOk, storedMessage } from "../helpers/sending";

/** POST /messages (spec 4.1): addressing, topics and content. Permissions are in sendMessagePermissions.test.ts. */

let org: Org;
let channelName: string;
let channelId: number;

beforeAll(async () => {
  org = await seedOrg();
  channelName = uniqueName("general");
  channelId = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.guest.id] }, channelName);
}, 60_000);
afterAll(() => org.server.dispose());

/** Expects the request to fail with this code and to store nothing. */
async function expectRefused(response: Promise<{ status: number; body: any }>, code = "BAD_REQUEST", message?: string | RegExp) {
  const before = messageCount(org.server);
  const result = await response;
  expectError(result, code);
  if (message) expect(result.body.msg).toMatch(message);
  expect(messageCount(org.server)).toBe(before);
  return result.body;
}

describe("channel messages", () => {
  test("by channel name: the response is the new ID, and the message is stored as sent", async () => {
    const body = await sendOk(org.member, channelMessage(channelName, "greetings", "hello **world**"));
    expect(body).toMatchObject({ result: "success", msg: "" });
    expect(Number.isInteger(body.id)).toBe(true);
    expect(body.ignored_parameters_unsupported).toBeUndefined();
    const stored = storedMessage(org.server, body.id)!;
    expect(stored).toMatchObject({ channel_id: channelId, topic: "greetings", sender_id: org.member.id, content: "hello **world**" });
    expect(stored.rendered_content).toBe("<p>hello <strong>world</strong></p>");
  });

  test("every alias of the type and every form of `to` reach the same channel", async () => {
    const forms: Array<[string, unknown]> = [
      ["stream", channelName],
      ["channel", channelName.toUpperCase()],
      ["channel", String(channelId)],
      ["stream", JSON.stringify(channelName)],
      ["channel", [channelName]],
      ["channel", [channelId]],
    ];
    for (const [type, to] of forms) {
      const { id } = await sendOk(org.member, { type, to, topic: "forms", content: `via ${type} ${JSON.stringify(to)}` });
      expect(storedMessage(org.server, id)!.channel_id).toBe(channelId);
    }
  });

  test("the recipient ID is the channel's, the same for every sender", async () => {
    const a = storedMessage(org.server, (await sendOk(org.member, channelMessage(channelName, "same", "a"))).id)!;
    const b = storedMessage(org.server, (await sendOk(org.member2, channelMessage(channelId, "other", "b"))).id)!;
    expect(a.recipient_id).toBe(b.recipient_id);
  });

  test("an unknown channel name is STREAM_DOES_NOT_EXIST with the name in `stream`", async () => {
    const body = await expectRefused(send(org.member, channelMessage("no such channel", "t", "x")), "STREAM_DOES_NOT_EXIST");
    expect(body.stream).toBe("no such channel");
    expect(body.msg).toContain("no such channel");
  });

  test("an unknown channel ID is STREAM_DOES_NOT_EXIST naming the ID", async () => {
    const body = await expectRefused(send(org.member, channelMessage(987654, "t", "x")), "STREAM_DOES_NOT_EXIST");
    expect(body).toMatchObject({ stream: "987654", stream_id: 987654 });
  });

  test("malformed channel addresses are BAD_REQUEST", async () => {
    await expectRefused(send(org.member, channelMessage(JSON.stringify([channelName, "other"]), "t", "x")), "BAD_REQUEST", "exactly one channel");
    await expectRefused(send(org.member, channelMessage("true", "t", "x")), "BAD_REQUEST", "Invalid data type for channel");
    await expectRefused(send(org.member, channelMessage("{}", "t", "x")), "BAD_REQUEST");
    await expectRefused(send(org.member, channelMessage("   ", "t", "x")), "BAD_REQUEST");
  });

  test("an unknown message type is BAD_REQUEST", async () => {
    await expectRefused(send(org.member, { type: "broadcast", to: channelName, topic: "t", content: "x" }), "BAD_REQUEST", "Invalid message type");
  });

  test("missing required parameters are BAD_REQUEST naming them", async () => {
    for (const missing of ["type", "to", "content"]) {
      const params: Record<string, unknown> = channelMessage(channelName, "t", "x");
      delete params[missing];
      const body = await expectRefused(send(org.member, params));
      expect(body.msg).toContain(missing);
    }
  });
});

describe("topics", () => {
  const topicOf = async (topic: string | undefined, extra: Record<string, unknown> = {}) => {
    const params: Record<string, unknown> = { type: "channel", to: channelName, content: "topic test", ...extra };
    if (topic !== undefined) params.topic = topic;
    return storedMessage(org.server, (await sendOk(org.member, params)).id)!.topic;
  };

  test("are trimmed, and keep their case while matching case-insensitively", async () => {
    expect(await topicOf("  Castle  ")).toBe("Castle");
    const stored = storedMessage(org.server, (await sendOk(org.member, channelMessage(channelName, "CASTLE", "x"))).id)!;
    expect(stored.topic_key).toBe("castle");
  });

  test("`subject` is the deprecated name of `topic`", async () => {
    expect(await topicOf(undefined, { subject: "old style" })).toBe("old style");
  });

  test('"(no topic)", the display name and "" all mean the empty topic', async () => {
    expect(await topicOf("(no topic)")).toBe("");
    expect(await topicOf("general chat")).toBe("");
    expect(await topicOf("")).toBe("");
    expect(await topicOf("   ")).toBe("");
  });

  test("a channel message without a topic is refused", async () => {
    await expectRefused(send(org.member, { type: "channel", to: channelName, content: "x" }), "BAD_REQUEST", "Missing topic");
  });

  test("when the organization requires topics, every spelling of the empty topic is refused", async () => {
    setRealmSetting(org.server, "mandatory_topics", true);
    try {
      for (const topic of ["", "(no topic)", "general chat", "  "]) {
        await expectRefused(send(org.member, channelMessage(channelName, topic, "x")), "BAD_REQUEST", "Topics are required");
      }
      expect(await topicOf("a real topic")).toBe("a real topic");
      // Direct messages have no topic to require.
      await sendOk(org.member, directMessage([org.member2.id], "no topic needed"));
    } finally {
      setRealmSetting(org.server, "mandatory_topics", false);
    }
  });

  test("are at most max_topic_length (60) code points", async () => {
    expect(await topicOf("t".repeat(60))).toBe("t".repeat(60));
    // 60 astral characters are 120 UTF-16 units but 60 code points.
    expect(await topicOf("🐙".repeat(60))).toBe("🐙".repeat(60));
    await expectRefused(send(org.member, channelMessage(channelName, "t".repeat(61), "x")), "BAD_REQUEST", "Topic too long");
    await expectRefused(send(org.member, channelMessage(channelName, "t".repeat(5000), "x")), "BAD_REQUEST");
  });

  test("may not contain control characters", async () => {
    await expectRefused(send(org.member, channelMessage(channelName, "bad\u0000topic", "x")), "BAD_REQUEST", "Invalid character in topic");
    await expectRefused(send(org.member, channelMessage(channelName, "line\nbreak", "x")), "BAD_REQUEST", "position 5");
  });

  test("are ignored for direct messages", async () => {
    const { id } = await sendOk(org.member, directMessage([org.member2.id], "dm", { topic: "ignored" }));
    expect(storedMessage(org.server, id)).toMatchObject({ topic: "", channel_id: null });
  });
});

describe("content", () => {
  test("trailing whitespace and leading blank lines are dropped", async () => {
    const { id } = await sendOk(org.member, channelMessage(channelName, "content", "\n\n  indented\n\n  "));
    expect(storedMessage(org.server, id)!.content).toBe("  indented");
  });

  test("empty or blank content is refused", async () => {
    for (const content of ["", "   ", "\n\n"]) {
      await expectRefused(send(org.member, channelMessage(channelName, "content", content)), "BAD_REQUEST", "must not be empty");
    }
  });

  test("is at most max_message_length (10000) code points", async () => {
    const { id } = await sendOk(org.member, channelMessage(channelName, "content", "🐙".repeat(10_000)));
    expect([...storedMessage(org.server, id)!.content].length).toBe(10_000);
    await expectRefused(send(org.member, channelMessage(channelName, "content", "x".repeat(10_001))), "BAD_REQUEST", "too long");
    await expectRefused(send(org.member, channelMessage(channelName, "content", "x".repeat(200_000))), "BAD_REQUEST");
  });

  test("null bytes are refused", async () => {
    await expectRefused(send(org.member, channelMessage(channelName, "content", "a\u0000b")), "BAD_REQUEST", "null bytes");
  });

  test("raw HTML is escaped, and /me messages are marked", async () => {
    const html = storedMessage(org.server, (await sendOk(org.member, channelMessage(channelName, "content", "<script>alert(1)</script>"))).id)!;
    expect(html.rendered_content).not.toContain("<script>");
    const me = storedMessage(org.server, (await sendOk(org.member, channelMessage(channelName, "content", "/me waves"))).id)!;
    expect(me.is_me_message).toBe(1);
  });

  test("unsupported parameters are named in ignored_parameters_unsupported", async () => {
    const body = await sendOk(org.member, channelMessage(channelName, "content", "x", { colour: "blue" }));
    expect(body.ignored_parameters_unsupported).toEqual(["colour"]);
  });
});

describe("direct messages", () => {
  const membersOf = async (params: Record<string, unknown>, person = org.member) => {
    const stored = storedMessage(org.server, (await sendOk(person, params)).id)!;
    return { recipientId: stored.recipient_id, members: recipientMembers(org.server, stored.recipient_id) };
  };

  test("to oneself", async () => {
    const self = await membersOf(directMessage([org.member.id], "note to self"));
    expect(self.members).toEqual([org.member.id]);
    expect((await membersOf(directMessage(JSON.stringify([org.member.email]), "again"))).recipientId).toBe(self.recipientId);
  });

  test("to one user: both directions share one recipient ID", async () => {
    const there = await membersOf(directMessage([org.member2.id], "hi"));
    expect(there.members).toEqual([org.member.id, org.member2.id].sort((a, b) => a - b));
    const back = await membersOf(directMessage([org.member.id], "hi back"), org.member2);
    expect(back.recipientId).toBe(there.recipientId);
  });

  test("to a group: every spelling of the same set is one recipient ID", async () => {
    const ids = [org.member2.id, org.admin.id];
    const first = await membersOf(directMessage(ids, "group"));
    expect(first.members).toEqual([org.member.id, ...ids].sort((a, b) => a - b));
    const spellings = [
      [...ids].reverse(),
      [...ids, org.member.id, ids[0]],
      [org.member2.email, org.admin.email],
      `${org.admin.email}, ${org.member2.email}`,
      org.admin.email.toUpperCase() + "," + org.member2.email,
    ];
    for (const to of spellings) expect((await membersOf(directMessage(to, "group again"))).recipientId).toBe(first.recipientId);
    // Another member of the group sending to the same set also lands there.
    expect((await membersOf(directMessage([org.member.id, org.member2.id], "from admin"), org.admin)).recipientId).toBe(first.recipientId);
  });

  test("the `private` alias is a direct message", async () => {
    const { id } = await sendOk(org.member, { type: "private", to: [org.member2.id], content: "legacy" });
    expect(storedMessage(org.server, id)!.channel_id).toBeNull();
  });

  test("malformed recipient lists are BAD_REQUEST", async () => {
    await expectRefused(send(org.member, directMessage([], "x")), "BAD_REQUEST", "must have recipients");
    await expectRefused(send(org.member, directMessage(" , ", "x")), "BAD_REQUEST", "must have recipients");
    await expectRefused(send(org.member, directMessage([org.member2.id, org.admin.email], "x")), "BAD_REQUEST", "not both");
    await expectRefused(send(org.member, directMessage("{}", "x")), "BAD_REQUEST", "Invalid data type");
    await expectRefused(send(org.member, directMessage([[1]], "x")), "BAD_REQUEST", "Invalid data type");
  });

  test("unknown users are BAD_REQUEST naming them", async () => {
    await expectRefused(send(org.member, directMessage([987654], "x")), "BAD_REQUEST", "987654");
    await expectRefused(send(org.member, directMessage(["nobody@example.com"], "x")), "BAD_REQUEST", "nobody@example.com");
  });

  test("a deactivated recipient is refused, alone or in a group", async () => {
    const gone = org.moderator;
    await deactivateUser(org, gone.id);
    await expectRefused(send(org.member, directMessage([gone.id], "x")), "BAD_REQUEST", "no longer using");
    await expectRefused(send(org.member, directMessage([org.member2.id, gone.id], "x")), "BAD_REQUEST", "no longer using");
    await expectRefused(send(org.member, directMessage([gone.email], "x")), "BAD_REQUEST", "no longer using");
  });
});

describe("sends committed together (group commit)", () => {
  test("a message the database refuses fails alone: the sends batched with it are stored, each once", async () => {
    const refused = "refused by the database";
    editServerDatabase(org.server, {
      sqlite: `CREATE TRIGGER refuse_one BEFORE INSERT ON messages WHEN NEW.content = '${refused}' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
      postgres: `CREATE FUNCTION refuse_one() RETURNS trigger AS $$ BEGIN IF NEW.content = '${refused}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql; CREATE TRIGGER refuse_one BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse_one()`,
    });
    try {
      const topic = uniqueName("batch");
      const before = messageCount(org.server);
      // Sent at once, so that they share transactions; the refused one in the middle.
      const contents = [...Array(12).keys()].map((i) => (i === 6 ? refused : `batched ${i}`));
      const answers = await Promise.all(contents.map((content, i) => send(i % 2 === 0 ? org.member : org.member2, channelMessage(channelId, `${topic} ${i % 3}`, content))));
      answers.forEach((answer, i) => {
        if (i === 6) expect(answer.body.result).toBe("error");
        else expect(answer.status).toBe(200);
      });
      expect(messageCount(org.server)).toBe(before + 11);
      const ids = answers.filter((_, i) => i !== 6).map((answer) => answer.body.id as number);
      expect(new Set(ids).size).toBe(11);
      for (const [i, id] of ids.entries()) expect(storedMessage(org.server, id)!.content).toBe(contents[i < 6 ? i : i + 1]);
    } finally {
      editServerDatabase(org.server, { sqlite: "DROP TRIGGER refuse_one", postgres: "DROP TRIGGER refuse_one ON messages; DROP FUNCTION refuse_one()" });
    }
    // Nothing is left broken: the next send works.
    await sendOk(org.member, channelMessage(channelId, "after", "fine"));
  });
});
