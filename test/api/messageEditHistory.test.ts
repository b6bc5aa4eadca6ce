import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, setRealmSetting, subscribe, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS, register } from "../events/support";

/**
 * GET /messages/{message_id}/history (reference: get-message-history): snapshots of a message
 * after each change, oldest first, under message access and the organization's
 * message_edit_history_visibility_policy.
 */

let org: Org;
let name: string;
let channelId: number;
let otherChannelId: number;
beforeAll(async () => {
  org = await seedOrg();
  name = uniqueName("history");
  channelId = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, name);
  otherChannelId = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const historyOf = (person: Person, id: number | string, params: Record<string, unknown> = {}) => person.api.get(`/messages/${id}/history`, params);
const edit = (person: Person, id: number, params: Record<string, unknown>) => person.api.patch(`/messages/${id}`, { send_notification_to_new_thread: false, ...params });
const post = async (topic: string, content: string, sender = org.member) => (await sendOk(sender, channelMessage(name, topic, content))).id;
const now = () => Math.floor(Date.now() / 1000);

describe("snapshots", () => {
  test("a message never edited has one snapshot: the original, with only its five fields", async () => {
    const before = now();
    const id = await post("plans", "Hello!");
    const body = ok(await historyOf(org.member2, id));
    expect(body).toEqual({
      result: "success",
      msg: "",
      message_history: [{ topic: "plans", content: "Hello!", rendered_content: "<p>Hello!</p>", user_id: org.member.id, timestamp: expect.any(Number) }],
    });
    expect(body.message_history[0].timestamp).toBeGreaterThanOrEqual(before - 1);
  });

  test("content edits and topic moves, oldest first, each with what it changed", async () => {
    const id = await post("party at my houz", "Hello!");
    ok(await edit(org.member, id, { content: "Howdy!" }));
    ok(await edit(org.member2, id, { topic: "party at my house" }));
    ok(await edit(org.member, id, { content: "Howdy, **all**!", topic: "party at my place" }));
    const history = ok(await historyOf(org.member, id)).message_history;
    expect(history).toHaveLength(4);
    expect(history[0]).toEqual({ topic: "party at my houz", content: "Hello!", rendered_content: "<p>Hello!</p>", user_id: org.member.id, timestamp: expect.any(Number) });
    expect(history[1]).toEqual({
      topic: "party at my houz",
      content: "Howdy!",
      rendered_content: "<p>Howdy!</p>",
      prev_content: "Hello!",
      prev_rendered_content: "<p>Hello!</p>",
      content_html_diff: '<div><p><span class="highlight_text_deleted">Hello!</span><span class="highlight_text_inserted">Howdy!</span></p></div>',
      user_id: org.member.id,
      timestamp: expect.any(Number),
    });
    expect(history[2]).toEqual({
      topic: "party at my house",
      prev_topic: "party at my houz",
      content: "Howdy!",
      rendered_content: "<p>Howdy!</p>",
      user_id: org.member2.id,
      timestamp: expect.any(Number),
    });
    expect(history[3]).toEqual({
      topic: "party at my place",
      prev_topic: "party at my house",
      content: "Howdy, **all**!",
      rendered_content: "<p>Howdy, <strong>all</strong>!</p>",
      prev_content: "Howdy!",
      prev_rendered_content: "<p>Howdy!</p>",
      content_html_diff: '<div><p><span class="highlight_text_deleted">Howdy!</span><span class="highlight_text_inserted">Howdy,</span> <strong><span class="highlight_text_inserted">all</span></strong><span class="highlight_text_inserted">!</span></p></div>',
      user_id: org.member.id,
      timestamp: expect.any(Number),
    });
    const times = history.map((snapshot: { timestamp: number }) => snapshot.timestamp);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  test("a move to another channel carries stream and prev_stream", async () => {
    const id = await post("moving", "on the move");
    ok(await edit(org.member, id, { stream_id: otherChannelId }));
    const history = ok(await historyOf(org.member, id)).message_history;
    expect(history).toHaveLength(2);
    expect(history[1]).toEqual({ topic: "moving", stream: otherChannelId, prev_stream: channelId, content: "on the move", rendered_content: "<p>on the move</p>", user_id: org.member.id, timestamp: expect.any(Number) });
  });

  test("the empty topic is the display name unless allow_empty_topic_name", async () => {
    const id = await post("", "no topic yet");
    ok(await edit(org.member, id, { topic: "named" }));
    const shown = ok(await historyOf(org.member, id)).message_history;
    expect(shown[0].topic).toBe("general chat");
    expect(shown[1]).toMatchObject({ topic: "named", prev_topic: "general chat" });
    const raw = ok(await historyOf(org.member, id, { allow_empty_topic_name: true })).message_history;
    expect(raw[0].topic).toBe("");
    expect(raw[1]).toMatchObject({ topic: "named", prev_topic: "" });
  });

  test("direct messages: an empty topic throughout, and content edits", async () => {
    const id = (await sendOk(org.member, directMessage([org.member2.id], "psst"))).id;
    ok(await edit(org.member, id, { content: "psst!" }));
    const history = ok(await historyOf(org.member2, id)).message_history;
    expect(history.map((snapshot: { topic: string; content: string }) => [snapshot.topic, snapshot.content])).toEqual([
      ["", "psst"],
      ["", "psst!"],
    ]);
  });

  test("matches the message's own edit_history, newest first there", async () => {
    const id = await post("cross-check", "one");
    ok(await edit(org.member, id, { content: "two" }));
    ok(await edit(org.member, id, { topic: "cross-checked" }));
    const message = ok(await org.member.api.get(`/messages/${id}`)).message;
    const history = ok(await historyOf(org.member, id)).message_history;
    expect(history.slice(1).reverse().map((snapshot: { timestamp: number; user_id: number }) => [snapshot.timestamp, snapshot.user_id])).toEqual(
      message.edit_history.map((entry: { timestamp: number; user_id: number }) => [entry.timestamp, entry.user_id]),
    );
  });
});

describe("access", () => {
  test("anyone who may read the message may read its history, bots included", async () => {
    const id = await post("open", "public words");
    for (const person of [org.owner, org.admin, org.moderator, org.member2, org.bot]) ok(await historyOf(person, id));
  });

  test("a guest not subscribed, and anyone outside a direct conversation or a private channel, is refused as for an unknown message", async () => {
    const publicId = await post("open", "public words");
    const direct = (await sendOk(org.member, directMessage([org.member2.id], "between us"))).id;
    const secret = uniqueName("secret");
    await createChannel(org, org.member, { invite_only: true }, secret);
    const privateId = (await sendOk(org.member, channelMessage(secret, "t", "hush"))).id;
    const refusals: Array<[Person, number]> = [
      [org.guest, publicId],
      [org.admin, direct],
      [org.guest, direct],
      [org.bot, direct],
      [org.admin, privateId],
      [org.member2, privateId],
    ];
    for (const [person, id] of refusals) {
      const refused = await historyOf(person, id);
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe("Invalid message(s)");
    }
    await subscribe(org.member, [name], { principals: [org.guest.id] });
    ok(await historyOf(org.guest, publicId));
  });

  test("unknown and malformed message IDs", async () => {
    const unknown = await historyOf(org.member, 999_999_999);
    expectError(unknown, "BAD_REQUEST");
    expect(unknown.body.msg).toBe("Invalid message(s)");
    for (const bad of ["abc", "-1", "1.5"]) expectError(await historyOf(org.member, bad), "BAD_REQUEST");
    const id = await post("open", "x");
    const badFlag = await historyOf(org.member, id, { allow_empty_topic_name: "perhaps" });
    expectError(badFlag, "BAD_REQUEST");
    expect(badFlag.body.msg).toContain("allow_empty_topic_name");
  });

  test("without credentials the request is refused", async () => {
    const id = await post("open", "x");
    const refused = await org.anon.get(`/messages/${id}/history`);
    expect(refused.status).toBe(401);
    expect(refused.body.result).toBe("error");
  });
});

describe("message_edit_history_visibility_policy", () => {
  let id: number;
  beforeAll(async () => {
    id = await post("policy", "first draft");
    ok(await edit(org.member, id, { content: "second draft" }));
    ok(await edit(org.member, id, { topic: "policy moved" }));
    ok(await edit(org.member, id, { content: "final draft" }));
  });

  test("register shows the policy and the deprecated allow_edit_history", async () => {
    const state = await register(org.member, { fetch_event_types: ["realm"] });
    expect(state.realm_message_edit_history_visibility_policy).toBe("all");
    expect(state.realm_allow_edit_history).toBe(true);
  });

  test('"moves": only the original and the moves, each showing the current content and no earlier one', async () => {
    setRealmSetting(org.server, "message_edit_history_visibility_policy", "moves");
    try {
      const history = ok(await historyOf(org.member2, id)).message_history;
      expect(history).toEqual([
        { topic: "policy", content: "final draft", rendered_content: "<p>final draft</p>", user_id: org.member.id, timestamp: expect.any(Number) },
        { topic: "policy moved", prev_topic: "policy", content: "final draft", rendered_content: "<p>final draft</p>", user_id: org.member.id, timestamp: expect.any(Number) },
      ]);
      const state = await register(org.member, { fetch_event_types: ["realm"] });
      expect(state.realm_message_edit_history_visibility_policy).toBe("moves");
      expect(state.realm_allow_edit_history).toBe(true);
    } finally {
      setRealmSetting(org.server, "message_edit_history_visibility_policy", "all");
    }
  });

  test('"none": refused for everyone, the sender and the owner included', async () => {
    setRealmSetting(org.server, "message_edit_history_visibility_policy", "none");
    try {
      for (const person of [org.member, org.owner]) {
        const refused = await historyOf(person, id);
        expectError(refused, "BAD_REQUEST");
        expect(refused.body.msg).toBe("Message edit history is disabled in this organization");
      }
      const state = await register(org.member, { fetch_event_types: ["realm"] });
      expect(state.realm_allow_edit_history).toBe(false);
    } finally {
      setRealmSetting(org.server, "message_edit_history_visibility_policy", "all");
    }
    expect(ok(await historyOf(org.member, id)).message_history).toHaveLength(4);
  });
});
