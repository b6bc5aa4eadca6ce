import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, setRealmSetting, systemGroupId, uniqueName } from "../helpers/channels";
import { editServerDatabase } from "../helpers/inProcess";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk, storedFlags } from "../helpers/sending";

/** PATCH /messages/{id}: editing content, changing topics, moving between channels (reference update-message). */

let org: Org;
let main: { name: string; id: number };
let other: { name: string; id: number };

const channel = async (creator: Person, params: Record<string, unknown> = {}) => {
  const name = uniqueName("edits");
  return { name, id: await createChannel(org, creator, params, name) };
};

beforeAll(async () => {
  org = await seedOrg();
  const everyone = [org.member, org.member2, org.guest, org.moderator, org.admin].map((person) => person.id);
  main = await channel(org.member, { principals: everyone });
  other = await channel(org.member, { principals: everyone });
}, 60_000);
afterAll(() => org.server.dispose());

interface Row {
  id: number;
  channel_id: number | null;
  recipient_id: number;
  topic: string;
  topic_key: string;
  content: string;
  rendered_content: string;
  last_edit_time: number | null;
  last_moved_time: number | null;
  edit_history: string | null;
}
const row = (id: number) => queryServer<Row>(org.server, "SELECT * FROM messages WHERE id = ?", id)[0];
const history = (id: number) => JSON.parse(row(id).edit_history ?? "null");
const topicOf = (id: number) => row(id).topic;

const post = async (sender: Person, topic = "plans", content = "first draft", to = main.name) => (await sendOk(sender, channelMessage(to, topic, content))).id;
const edit = (person: Person, id: number | string, params: Record<string, unknown>) => person.api.patch(`/messages/${id}`, params);
const makeOld = (id: number, secondsAgo: number) => editServerDatabase(org.server, "UPDATE messages SET date_sent = ? WHERE id = ?", Math.floor(Date.now() / 1000) - secondsAgo, id);
const now = () => Math.floor(Date.now() / 1000);

/** Expects the refusal, and that none of the messages changed. */
async function expectRefused(ids: number[], response: Promise<{ status: number; body: any }>, msg: string | null, code = "BAD_REQUEST") {
  const before = ids.map(row);
  const result = await response;
  expectError(result, code);
  if (msg !== null) expect(result.body.msg).toBe(msg);
  expect(ids.map(row)).toEqual(before);
  return result.body;
}

async function withSetting(name: string, value: unknown, restore: unknown, run: () => Promise<void>) {
  setRealmSetting(org.server, name, value);
  try {
    await run();
  } finally {
    setRealmSetting(org.server, name, restore);
  }
}

describe("editing content", () => {
  test("the sender edits: content re-rendered, last_edit_timestamp set, edit_history newest first", async () => {
    const id = await post(org.member, "plans", "first **draft**");
    const body = ok(await edit(org.member, id, { content: "second **draft**" }));
    expect(body).toEqual({ result: "success", msg: "", detached_uploads: [] });
    const after = row(id);
    expect(after).toMatchObject({ content: "second **draft**", rendered_content: "<p>second <strong>draft</strong></p>", last_moved_time: null });
    expect(Math.abs(after.last_edit_time! - now())).toBeLessThan(5);
    ok(await edit(org.member, id, { content: "third" }));
    expect(history(id)).toEqual([
      { user_id: org.member.id, timestamp: row(id).last_edit_time, prev_content: "second **draft**", prev_rendered_content: "<p>second <strong>draft</strong></p>" },
      { user_id: org.member.id, timestamp: after.last_edit_time, prev_content: "first **draft**", prev_rendered_content: "<p>first <strong>draft</strong></p>" },
    ]);
  });

  test("message objects show the edit: last_edit_timestamp, edit_history; last_moved_timestamp only after a move", async () => {
    const id = await post(org.member, "shown", "before");
    const fetch = async () => ok(await org.member2.api.get(`/messages/${id}`, { apply_markdown: false })).message;
    const fresh = await fetch();
    expect(fresh.last_edit_timestamp).toBeUndefined();
    expect(fresh.edit_history).toBeUndefined();
    ok(await edit(org.member, id, { content: "after" }));
    const edited = await fetch();
    expect(edited).toMatchObject({ content: "after", last_edit_timestamp: row(id).last_edit_time, edit_history: history(id) });
    expect(edited.last_moved_timestamp).toBeUndefined();
    ok(await edit(org.member2, id, { topic: "shown elsewhere", send_notification_to_new_thread: false }));
    const moved = await fetch();
    expect(moved).toMatchObject({ subject: "shown elsewhere", last_edit_timestamp: row(id).last_edit_time, last_moved_timestamp: row(id).last_moved_time });
    expect(moved.edit_history).toHaveLength(2);
    expect(moved.edit_history[0]).toMatchObject({ prev_topic: "shown", topic: "shown elsewhere", user_id: org.member2.id });
  });

  test("nobody else edits content: not other members, moderators, administrators, owners, guests or bots", async () => {
    const id = await post(org.member);
    for (const person of [org.member2, org.moderator, org.admin, org.owner, org.guest, org.bot]) {
      await expectRefused([id], edit(person, id, { content: "hijacked" }), person === org.owner || person === org.bot ? null : "You don't have permission to edit this message");
    }
  });

  test("allow_message_editing false turns content editing off", async () => {
    const id = await post(org.member);
    await withSetting("allow_message_editing", false, true, async () => {
      await expectRefused([id], edit(org.member, id, { content: "too late" }), "Your organization has turned off message editing");
    });
  });

  test("message_content_edit_limit_seconds, with a few seconds' grace; null means no limit", async () => {
    const young = await post(org.member);
    makeOld(young, 610);
    ok(await edit(org.member, young, { content: "just in time" }));
    const old = await post(org.member);
    makeOld(old, 700);
    await expectRefused([old], edit(org.member, old, { content: "too late" }), "The time limit for editing this message has passed");
    await withSetting("message_content_edit_limit_seconds", null, 600, async () => {
      ok(await edit(org.member, old, { content: "no limit" }));
    });
  });

  test("emptied content becomes (deleted); too long, identical or missing content is refused", async () => {
    const id = await post(org.member);
    ok(await edit(org.member, id, { content: "   " }));
    expect(row(id).content).toBe("(deleted)");
    await expectRefused([id], edit(org.member, id, { content: "x".repeat(10_001) }), "Message too long (limit: 10000 characters).");
    await expectRefused([id], edit(org.member, id, { content: "(deleted)" }), "Nothing to change");
    await expectRefused([id], edit(org.member, id, {}), "Nothing to change");
    await expectRefused([id], edit(org.member, id, { content: "x".repeat(200_000) }), null);
  });

  test("propagate_mode other than change_one needs a topic or channel change; unknown modes are a 400", async () => {
    const id = await post(org.member);
    await expectRefused([id], edit(org.member, id, { content: "new", propagate_mode: "change_all" }), "Invalid propagate_mode without topic edit");
    await expectRefused([id], edit(org.member, id, { topic: "x", propagate_mode: "change_everything" }), null);
    await expectRefused([id], edit(org.member, id, { topic: "x", send_notification_to_new_thread: "maybe" }), null);
    await expectRefused([id], edit(org.member, id, { stream_id: "abc" }), null);
  });

  test("mentions follow the content: added mentions flag their users, removed ones unflag them", async () => {
    const id = await post(org.member, "plans", "nobody yet");
    ok(await edit(org.member, id, { content: "hey @**Max Member**" }));
    expect(storedFlags(org.server, id).get(org.member2.id)).toBe(16);
    ok(await edit(org.member, id, { content: "hey @**Mona Moderator**" }));
    expect(storedFlags(org.server, id).get(org.member2.id)).toBeUndefined();
    expect(storedFlags(org.server, id).get(org.moderator.id)).toBe(16);
  });

  test("direct messages: the sender edits content; topics and channels do not apply", async () => {
    const id = (await sendOk(org.member, directMessage([org.member2.id], "dm draft"))).id;
    ok(await edit(org.member, id, { content: "dm final" }));
    expect(row(id).content).toBe("dm final");
    await expectRefused([id], edit(org.member, id, { topic: "a topic" }), "Direct messages cannot have topics.");
    await expectRefused([id], edit(org.member, id, { stream_id: main.id }), "Direct messages cannot be moved to channels.");
    await expectRefused([id], edit(org.member2, id, { content: "not mine" }), "You don't have permission to edit this message");
  });

  test("messages one cannot reach: unknown, others' direct messages, private channels, archived channels", async () => {
    expect((await edit(org.member, 999_999, { content: "x" })).body).toMatchObject({ code: "BAD_REQUEST", msg: "Invalid message(s)" });
    expectError(await edit(org.member, "abc", { content: "x" }), "BAD_REQUEST");
    const dm = (await sendOk(org.member, directMessage([org.member2.id], "between us"))).id;
    await expectRefused([dm], edit(org.admin, dm, { content: "x" }), "Invalid message(s)");
    const secret = await channel(org.member2, { invite_only: true });
    const hidden = await post(org.member2, "secrets", "hidden", secret.name);
    await expectRefused([hidden], edit(org.admin, hidden, { topic: "exposed" }), "Invalid message(s)");
    const archived = await channel(org.member);
    const old = await post(org.member, "old", "old", archived.name);
    ok(await org.admin.api.delete(`/streams/${archived.id}`));
    await expectRefused([old], edit(org.member, old, { content: "revived" }), "Invalid message(s)");
  });
});

describe("changing the topic", () => {
  test("change_one, change_later, change_all move the one, the rest from it on, or the whole topic (any case)", async () => {
    const topic = uniqueName("Topic");
    const ids = [await post(org.member, topic), await post(org.member2, topic.toUpperCase()), await post(org.member, topic), await post(org.member2, topic)];
    ok(await edit(org.member2, ids[1], { topic: "one", send_notification_to_new_thread: false }));
    expect(ids.map(topicOf)).toEqual([topic, "one", topic, topic]);
    ok(await edit(org.member2, ids[2], { topic: "later", propagate_mode: "change_later", send_notification_to_new_thread: false }));
    expect(ids.map(topicOf)).toEqual([topic, "one", "later", "later"]);
    ok(await edit(org.member, ids[3], { topic: "ALL", propagate_mode: "change_all", send_notification_to_new_thread: false }));
    expect(ids.map(topicOf)).toEqual([topic, "one", "ALL", "ALL"]);
    expect(row(ids[3]).topic_key).toBe("all");
  });

  test("a move records prev_topic/topic in edit_history and last_moved_timestamp, but not last_edit_timestamp", async () => {
    const id = await post(org.member, "before");
    ok(await edit(org.guest, id, { topic: "after", send_notification_to_new_thread: false }));
    const moved = row(id);
    expect(moved.last_edit_time).toBeNull();
    expect(Math.abs(moved.last_moved_time! - now())).toBeLessThan(5);
    expect(history(id)).toEqual([{ user_id: org.guest.id, timestamp: moved.last_moved_time, prev_topic: "before", topic: "after" }]);
  });

  test("content and topic in one edit make one history entry", async () => {
    const id = await post(org.member, "combo", "old words");
    ok(await edit(org.member, id, { content: "new words", topic: "combo two", send_notification_to_new_thread: false }));
    expect(history(id)).toEqual([
      { user_id: org.member.id, timestamp: row(id).last_edit_time, prev_content: "old words", prev_rendered_content: "<p>old words</p>", prev_topic: "combo", topic: "combo two" },
    ]);
  });

  test("can_move_messages_between_topics_group decides who moves topics", async () => {
    const id = await post(org.member);
    await withSetting("can_move_messages_between_topics_group", systemGroupId(org.server, "role:moderators"), systemGroupId(org.server, "role:everyone"), async () => {
      for (const person of [org.member, org.member2, org.guest]) {
        await expectRefused([id], edit(person, id, { topic: "elsewhere", send_notification_to_new_thread: false }), "You don't have permission to edit this message");
      }
      ok(await edit(org.moderator, id, { topic: "elsewhere", send_notification_to_new_thread: false }));
    });
  });

  test("move_messages_within_stream_limit_seconds binds everyone below moderator", async () => {
    const id = await post(org.member);
    makeOld(id, 8 * 24 * 3600);
    await expectRefused([id], edit(org.member, id, { topic: "late" }), "The time limit for editing this message's topic has passed.");
    ok(await edit(org.moderator, id, { topic: "late", send_notification_to_new_thread: false }));
    await withSetting("move_messages_within_stream_limit_seconds", null, 604800, async () => {
      ok(await edit(org.member, id, { topic: "later", send_notification_to_new_thread: false }));
    });
  });

  test("change_all over a topic with messages too old to move: MOVE_MESSAGES_TIME_LIMIT_EXCEEDED with what could move", async () => {
    const topic = uniqueName("aged");
    const ids = [await post(org.member, topic), await post(org.member, topic), await post(org.member, topic)];
    makeOld(ids[0], 8 * 24 * 3600);
    const body = await expectRefused(ids, edit(org.member, ids[2], { topic: "moved", propagate_mode: "change_all" }), "You only have permission to move the 2/3 most recent messages in this topic.", "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED");
    expect(body).toMatchObject({ first_message_id_allowed_to_move: ids[1], total_messages_in_topic: 3, total_messages_allowed_to_move: 2 });
    ok(await edit(org.member, ids[1], { topic: "moved", propagate_mode: "change_later", send_notification_to_new_thread: false }));
    ok(await edit(org.admin, ids[0], { topic: "moved", propagate_mode: "change_all", send_notification_to_new_thread: false }));
  });

  test("the empty topic: (no topic) and the display name mean it; refused when topics are mandatory", async () => {
    const id = await post(org.member);
    ok(await edit(org.member, id, { topic: "(no topic)", send_notification_to_new_thread: false }));
    expect(topicOf(id)).toBe("");
    ok(await edit(org.member, id, { topic: "named", send_notification_to_new_thread: false }));
    ok(await edit(org.member, id, { topic: "general chat", send_notification_to_new_thread: false }));
    expect(topicOf(id)).toBe("");
    await edit(org.member, id, { topic: "named again", send_notification_to_new_thread: false });
    await withSetting("mandatory_topics", true, false, async () => {
      await expectRefused([id], edit(org.member, id, { topic: "" }), "Topics are required in this organization.");
    });
  });

  test("bad topics: too long, control characters; an unchanged topic is no change", async () => {
    const id = await post(org.member, "same");
    await expectRefused([id], edit(org.member, id, { topic: "t".repeat(61) }), "Topic too long (limit: 60 characters).");
    await expectRefused([id], edit(org.member, id, { topic: "bad\u0001topic" }), null);
    await expectRefused([id], edit(org.member, id, { topic: "same" }), "Nothing to change");
    await expectRefused([id], edit(org.member, id, { topic: "x".repeat(5000) }), null);
  });

  test("subject is the older name of topic", async () => {
    const id = await post(org.member);
    ok(await edit(org.member, id, { subject: "via subject", send_notification_to_new_thread: false }));
    expect(topicOf(id)).toBe("via subject");
  });
});

describe("resolving topics", () => {
  const botPosts = (channelId: number, topic: string) =>
    queryServer<{ content: string }>(org.server, "SELECT m.content FROM messages m JOIN users u ON u.id = m.sender_id WHERE u.is_system_bot AND m.channel_id = ? AND m.topic = ? ORDER BY m.id", channelId, topic).map((r) => r.content);

  test("adding ✔ resolves: not counted as a move, and the notification bot says who did it", async () => {
    const topic = uniqueName("issue");
    const ids = [await post(org.member, topic), await post(org.member2, topic)];
    ok(await edit(org.member2, ids[0], { topic: `✔ ${topic}`, propagate_mode: "change_all" }));
    expect(ids.map(topicOf)).toEqual([`✔ ${topic}`, `✔ ${topic}`]);
    expect(ids.map((id) => row(id).last_moved_time)).toEqual([null, null]);
    expect(history(ids[1])[0]).toMatchObject({ prev_topic: topic, topic: `✔ ${topic}` });
    expect(botPosts(main.id, `✔ ${topic}`)).toEqual([`@_**Max Member|${org.member2.id}** has marked this topic as resolved.`]);
    ok(await edit(org.member, ids[0], { topic, propagate_mode: "change_all" }));
    // The first notice moved back with the topic; the second was posted after the move.
    expect(botPosts(main.id, topic)).toEqual([
      `@_**Max Member|${org.member2.id}** has marked this topic as resolved.`,
      `@_**Mel Member|${org.member.id}** has marked this topic as unresolved.`,
    ]);
  });

  test("can_resolve_topics_group decides who resolves; the empty topic cannot be resolved", async () => {
    const topic = uniqueName("issue");
    const id = await post(org.member, topic);
    await withSetting("can_resolve_topics_group", systemGroupId(org.server, "role:moderators"), systemGroupId(org.server, "role:everyone"), async () => {
      await expectRefused([id], edit(org.member, id, { topic: `✔ ${topic}`, propagate_mode: "change_all" }), "You don't have permission to resolve topics.");
      ok(await edit(org.moderator, id, { topic: `✔ ${topic}`, propagate_mode: "change_all" }));
    });
    for (const resolved of ["✔", "✔ general chat"]) await expectRefused([id], edit(org.member, id, { topic: resolved }), "General chat cannot be marked as resolved");
  });
});

describe("moving between channels", () => {
  test("a member moves a whole topic: channel, recipient and history change; first_message_id follows", async () => {
    const from = await channel(org.member, { principals: [org.member.id, org.member2.id] });
    const to = await channel(org.member, { principals: [org.member.id] });
    const ids = [await post(org.member, "travelling", "one", from.name), await post(org.member2, "travelling", "two", from.name)];
    ok(await edit(org.member, ids[0], { stream_id: to.id, propagate_mode: "change_all", send_notification_to_new_thread: false }));
    const toRecipient = queryServer<{ id: number }>(org.server, "SELECT id FROM recipients WHERE channel_id = ?", to.id)[0].id;
    for (const id of ids) {
      expect(row(id)).toMatchObject({ channel_id: to.id, recipient_id: toRecipient, topic: "travelling" });
      expect(history(id)).toEqual([{ user_id: org.member.id, timestamp: row(id).last_moved_time, prev_stream: from.id, stream: to.id }]);
    }
    const [fromRow] = queryServer<{ first_message_id: number }>(org.server, "SELECT first_message_id FROM channels WHERE id = ?", from.id);
    expect(fromRow.first_message_id).toBeLessThan(ids[0]);
    const [toRow] = queryServer<{ first_message_id: number }>(org.server, "SELECT first_message_id FROM channels WHERE id = ?", to.id);
    expect(toRow.first_message_id).toBeLessThan(ids[0]);
  });

  test("moving the oldest messages in: the destination's first_message_id becomes the oldest moved", async () => {
    const from = await channel(org.member);
    const early = await post(org.member, "early", "early", from.name);
    const to = await channel(org.member);
    ok(await edit(org.member, early, { stream_id: to.id, send_notification_to_new_thread: false }));
    expect(queryServer(org.server, "SELECT first_message_id FROM channels WHERE id = ?", to.id)).toEqual([{ first_message_id: early }]);
  });

  test("stream and topic together", async () => {
    const id = await post(org.member, "both");
    ok(await edit(org.member, id, { stream_id: other.id, topic: "both moved", send_notification_to_new_thread: false }));
    expect(row(id)).toMatchObject({ channel_id: other.id, topic: "both moved" });
    expect(history(id)[0]).toMatchObject({ prev_stream: main.id, stream: other.id, prev_topic: "both", topic: "both moved" });
  });

  test("guests never move between channels; can_move_messages_between_channels_group decides for the rest", async () => {
    const id = await post(org.guest);
    await expectRefused([id], edit(org.guest, id, { stream_id: other.id }), "You don't have permission to move this message");
    await withSetting("can_move_messages_between_channels_group", systemGroupId(org.server, "role:everyone"), systemGroupId(org.server, "role:members"), async () => {
      await expectRefused([id], edit(org.guest, id, { stream_id: other.id }), "You don't have permission to move this message");
    });
    await withSetting("can_move_messages_between_channels_group", systemGroupId(org.server, "role:administrators"), systemGroupId(org.server, "role:members"), async () => {
      for (const person of [org.member, org.moderator]) await expectRefused([id], edit(person, id, { stream_id: other.id }), "You don't have permission to move this message");
      ok(await edit(org.admin, id, { stream_id: other.id, send_notification_to_new_thread: false }));
    });
  });

  test("the destination must be a live channel the mover may read and post in", async () => {
    const id = await post(org.member);
    const secret = await channel(org.member2, { invite_only: true });
    await expectRefused([id], edit(org.member, id, { stream_id: secret.id }), "Invalid channel ID");
    await expectRefused([id], edit(org.member, id, { stream_id: 999_999 }), "Invalid channel ID");
    const archived = await channel(org.member);
    ok(await org.admin.api.delete(`/streams/${archived.id}`));
    await expectRefused([id], edit(org.member, id, { stream_id: archived.id }), "Invalid channel ID");
    const announcements = await channel(org.admin, { can_send_message_group: systemGroupId(org.server, "role:administrators") });
    await expectRefused([id], edit(org.member, id, { stream_id: announcements.id }), "You do not have permission to post in this channel.");
    await expectRefused([id], edit(org.member, id, { stream_id: other.id, content: "and new words" }), "Cannot change message content while changing channel");
  });

  test("move_messages_between_streams_limit_seconds binds everyone below moderator", async () => {
    const id = await post(org.member);
    makeOld(id, 8 * 24 * 3600);
    await withSetting("move_messages_within_stream_limit_seconds", null, 604800, async () => {
      await expectRefused([id], edit(org.member, id, { stream_id: other.id }), "The time limit for editing this message's channel has passed");
      ok(await edit(org.moderator, id, { stream_id: other.id, send_notification_to_new_thread: false }));
    });
  });

  test("the same channel as now is no change", async () => {
    const id = await post(org.member);
    await expectRefused([id], edit(org.member, id, { stream_id: main.id }), "Nothing to change");
  });
});

describe("notifications of moves", () => {
  const lastBotPost = (channelId: number, topic: string) =>
    queryServer<{ content: string }>(org.server, "SELECT m.content FROM messages m JOIN users u ON u.id = m.sender_id WHERE u.is_system_bot AND m.channel_id = ? AND m.topic = ? ORDER BY m.id DESC LIMIT 1", channelId, topic)[0]?.content;

  test("by default the new topic hears where a moved topic came from; the old one is told only when asked", async () => {
    const topic = uniqueName("source");
    await post(org.member, topic);
    const id = await post(org.member, topic);
    ok(await edit(org.member, id, { topic: "destination", propagate_mode: "change_all" }));
    expect(lastBotPost(main.id, "destination")).toBe(`This topic was moved here from #**${main.name}>${topic}** by @_**Mel Member|${org.member.id}**.`);
    expect(lastBotPost(main.id, topic)).toBeUndefined();
    ok(await edit(org.member, id, { stream_id: other.id, propagate_mode: "change_all", send_notification_to_old_thread: true, send_notification_to_new_thread: false }));
    expect(lastBotPost(main.id, "destination")).toBe(`This topic was moved to #**${other.name}>destination** by @_**Mel Member|${org.member.id}**.`);
    // Only the first notice, which moved along with the topic: no new one was posted there.
    expect(lastBotPost(other.id, "destination")).toBe(`This topic was moved here from #**${main.name}>${topic}** by @_**Mel Member|${org.member.id}**.`);
  });

  test("one message, or several but not the whole topic", async () => {
    const topic = uniqueName("part");
    const ids = [await post(org.member, topic), await post(org.member, topic), await post(org.member, topic)];
    ok(await edit(org.member, ids[2], { topic: "single", send_notification_to_old_thread: true }));
    expect(lastBotPost(main.id, "single")).toStartWith("[A message](");
    expect(lastBotPost(main.id, "single")).toEndWith(`/near/${ids[2]}) was moved here from #**${main.name}>${topic}** by @_**Mel Member|${org.member.id}**.`);
    expect(lastBotPost(main.id, topic)).toEndWith(`/near/${ids[2]}) was moved from this topic to #**${main.name}>single** by @_**Mel Member|${org.member.id}**.`);
    ok(await edit(org.member, ids[0], { topic: "pair", propagate_mode: "change_later", send_notification_to_old_thread: true }));
    expect(lastBotPost(main.id, "pair")).toBe(`This topic was moved here from #**${main.name}>${topic}** by @_**Mel Member|${org.member.id}**.`);
  });

  test("part of a topic: N messages were moved", async () => {
    const topic = uniqueName("split");
    const ids = [await post(org.member, topic), await post(org.member, topic), await post(org.member, topic)];
    ok(await edit(org.member, ids[1], { topic: "split off", propagate_mode: "change_later", send_notification_to_old_thread: true }));
    expect(lastBotPost(main.id, "split off")).toBe(`2 messages were moved here from #**${main.name}>${topic}** by @_**Mel Member|${org.member.id}**.`);
    expect(lastBotPost(main.id, topic)).toBe(`2 messages were moved from this topic to #**${main.name}>split off** by @_**Mel Member|${org.member.id}**.`);
  });
});
