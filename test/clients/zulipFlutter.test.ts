import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { channelId, uniqueName } from "../helpers/channels";
import { type Org, ok, seedOrg } from "../helpers/seed";
import { png } from "../helpers/images";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS, pending } from "../events/support";
import { FLUTTER_REGISTER_PARAMS, checkClass, flutterEventProblems, flutterSnapshotProblems } from "./flutterContract";

/**
 * The Zulip mobile app (zulip-flutter), unmodified: what it sends and parses, call by call
 * (lib/api/route/*.dart), checked against the app's own parsing contract. A change that would
 * make the app throw while parsing fails here.
 */

let org: Org;
let name = "";
let channel = 0;
beforeAll(async () => {
  org = await seedOrg({ rateLimits: true });
  name = uniqueName("mobile");
  ok(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [org.member.id, org.member2.id] }));
  channel = channelId(org.server, name);
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

/** The problems the app would have parsing `body` as its class `name`. */
function parsed(body: unknown, name: string): string[] {
  const problems: string[] = [];
  checkClass(body, name, name, problems);
  return problems;
}

describe("zulip-flutter: sign-in and start-up", () => {
  test("server settings parse, and the feature level is one the app supports (at least 371)", async () => {
    const settings = ok(await org.anon.get("/server_settings"));
    expect(parsed(settings, "GetServerSettingsResult")).toEqual([]);
    expect(settings.zulip_feature_level).toBeGreaterThanOrEqual(371);
  });

  test("fetch_api_key and GET /users/me parse", async () => {
    expect(parsed(ok(await org.anon.post("/fetch_api_key", { username: org.member.email, password: org.member.password })), "FetchApiKeyResult")).toEqual([]);
    expect(parsed(ok(await org.member.api.get("/users/me")), "GetOwnUserResult")).toEqual([]);
  });

  test("register with the app's parameters (idle_queue_timeout=mobile) parses, for every role", async () => {
    for (const person of [org.owner, org.admin, org.moderator, org.member, org.guest, org.bot]) {
      const snapshot = ok(await person.api.post("/register", FLUTTER_REGISTER_PARAMS));
      expect({ who: person.email, problems: flutterSnapshotProblems(snapshot) }).toEqual({ who: person.email, problems: [] });
    }
  });
});

describe("zulip-flutter: reading and writing", () => {
  test("message lists (GET /messages with the app's narrow and anchors) and one message parse", async () => {
    const { member, member2 } = org;
    const id = (await sendOk(member, channelMessage(name, "greetings", "hello :smile: @**Max Member**"))).id;
    await sendOk(member2, directMessage([member.id], "psst"));
    for (const params of [
      { narrow: [], anchor: "newest", num_before: 100, num_after: 0 },
      { narrow: [{ operator: "channel", operand: channel }, { operator: "topic", operand: "greetings" }], anchor: "first_unread", num_before: 50, num_after: 50 },
      { narrow: [{ operator: "dm", operand: [member2.id] }], anchor: "oldest", num_before: 0, num_after: 100, include_anchor: false },
      { narrow: [{ operator: "is", operand: "starred" }], anchor: String(id), num_before: 10, num_after: 10 },
    ]) {
      const result = ok(await member.api.get("/messages", { ...params, client_gravatar: false, apply_markdown: true, allow_empty_topic_name: true }));
      expect(parsed(result, "GetMessagesResult")).toEqual([]);
      const problems: string[] = [];
      for (const message of result.messages) checkClass(message, "Message", "messages[]", problems);
      expect(problems).toEqual([]);
    }
    expect(parsed(ok(await member.api.get(`/messages/${id}`, { apply_markdown: true, allow_empty_topic_name: true })), "GetMessageResult")).toEqual([]);
  });

  test("sending, editing, flags, reactions, typing and topics: answers and the events they cause parse", async () => {
    const { member, member2 } = org;
    const queue = ok(await member2.api.post("/register", FLUTTER_REGISTER_PARAMS)).queue_id;
    const sent = ok(await member.api.post("/messages", { type: "stream", to: channel, topic: "plans", content: "lunch?", queue_id: "x", local_id: "1" }));
    expect(parsed(sent, "SendMessageResult")).toEqual([]);
    ok(await member.api.patch(`/messages/${sent.id}`, { content: "lunch at noon?" }));
    ok(await member.api.patch(`/messages/${sent.id}`, { topic: "food", propagate_mode: "change_all", send_notification_to_old_thread: false, send_notification_to_new_thread: false }));
    expect(parsed(ok(await member2.api.post("/messages/flags", { messages: [sent.id], op: "add", flag: "starred" })), "UpdateMessageFlagsResult")).toEqual([]);
    const narrowFlags = { anchor: "oldest", num_before: 0, num_after: 1000, narrow: [{ operator: "channel", operand: channel }], op: "add", flag: "read" };
    expect(parsed(ok(await member2.api.post("/messages/flags/narrow", narrowFlags)), "UpdateMessageFlagsForNarrowResult")).toEqual([]);
    ok(await member2.api.post(`/messages/${sent.id}/reactions`, { emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" }));
    ok(await member.api.post("/typing", { type: "stream", stream_id: channel, topic: "food", op: "start" }));
    ok(await member.api.post("/user_topics", { stream_id: channel, topic: "food", visibility_policy: 3 }));
    ok(await member2.api.post("/user_topics", { stream_id: channel, topic: "food", visibility_policy: 1 }));
    expect(parsed(ok(await member2.api.get(`/users/me/${channel}/topics`, { allow_empty_topic_name: true })), "GetChannelTopicsResult")).toEqual([]);
    expect(parsed(ok(await member2.api.get(`/messages/${sent.id}/read_receipts`)), "GetReadReceiptsResult")).toEqual([]);
    // Only administrators may delete (by default): the moderator's queue is not watched here.
    ok(await org.admin.api.delete(`/messages/${sent.id}`));
    const events = await pending(member2, queue);
    const kinds = new Set(events.map((event) => (event.op ? `${event.type} ${event.op}` : event.type)));
    for (const kind of ["message", "update_message", "update_message_flags add", "reaction add", "typing start", "user_topic", "delete_message"]) expect(kinds).toContain(kind);
    expect(events.flatMap(flutterEventProblems)).toEqual([]);
    expect(parsed({ events, queue_id: queue }, "GetEventsResult")).toEqual([]);
  });

  test("presence, alert words, muted users, custom emoji and settings: answers and events parse", async () => {
    const { member, member2, admin } = org;
    const queue = ok(await member2.api.post("/register", FLUTTER_REGISTER_PARAMS)).queue_id;
    // The app's presence report (lib/api/route/users.dart, updatePresence).
    const presence = ok(await member.api.post("/users/me/presence", { status: "active", new_user_input: true, ping_only: false, last_update_id: -1, history_limit_days: 14, slim_presence: true }));
    expect(parsed(presence, "UpdatePresenceResult")).toEqual([]);
    for (const [id, entry] of Object.entries(presence.presences ?? {})) expect(parsed(entry, "PerUserPresence").map((problem) => `${id}: ${problem}`)).toEqual([]);
    ok(await member2.api.post("/users/me/alert_words", { alert_words: ["lunch"] }));
    ok(await member2.api.post(`/users/me/muted_users/${admin.id}`));
    ok(await member2.api.delete(`/users/me/muted_users/${admin.id}`));
    ok(await admin.api.post("/realm/emoji/parley_dot", { file: new File([png()], "dot.png", { type: "image/png" }) }, { multipart: true }));
    ok(await admin.api.delete("/realm/emoji/parley_dot"));
    ok(await member2.api.patch("/settings", { twenty_four_hour_time: true, emojiset: "google" }));
    const events = await pending(member2, queue);
    const kinds = new Set(events.map((event) => (event.op ? `${event.type} ${event.op}` : event.type)));
    for (const kind of ["presence", "alert_words", "muted_users", "realm_emoji update", "user_settings update"]) expect(kinds).toContain(kind);
    expect(events.flatMap(flutterEventProblems)).toEqual([]);
  });

  test("uploading a photo, the temporary URL it shows it by, and the message that links it", async () => {
    const { member, member2 } = org;
    const uploaded = ok(await member.api.post("/user_uploads", { file: new File([png()], "photo.png", { type: "image/png" }) }, { multipart: true }));
    expect(parsed(uploaded, "UploadFileResult")).toEqual([]);
    const path = uploaded.uri.replace(/^\/user_uploads\//, "");
    const temporary = ok(await member.api.get(`/user_uploads/${path}`));
    expect(parsed(temporary, "GetFileTemporaryUrlResult")).toEqual([]);
    // The app loads the image from that URL without credentials.
    const image = await fetch(new URL(temporary.url, org.server.url));
    expect({ status: image.status, bytes: new Uint8Array(await image.arrayBuffer()) }).toEqual({ status: 200, bytes: png() });
    const id = (await sendOk(member, channelMessage(name, "photos", `[photo.png](${uploaded.uri})`))).id;
    const { message } = ok(await member2.api.get(`/messages/${id}`, { apply_markdown: true }));
    expect(message.content).toContain('class="message_inline_image"');
  });

  test("client device and push registration (lib/api/route/account.dart, notifications.dart)", async () => {
    const { member } = org;
    expect(parsed(ok(await member.api.post("/register_client_device")), "RegisterClientDeviceResult")).toEqual([]);
    ok(await member.api.post("/users/me/android_gcm_reg_id", { token: "fcm-token-of-this-phone" }));
  });

  test("saved snippets and status", async () => {
    const { member } = org;
    expect(parsed(ok(await member.api.post("/saved_snippets", { title: "hi", content: "hello there" })), "CreateSavedSnippetResult")).toEqual([]);
    ok(await member.api.post("/users/me/status", { status_text: "on the train", emoji_name: "train" }));
  });
});
