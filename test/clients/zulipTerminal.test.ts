import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ApiResponse } from "../helpers/client";
import { createChannel, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { SEED_TIMEOUT_MS, pending } from "../events/support";
import { png } from "../helpers/images";

/**
 * zulip-terminal (github.com/zulip/zulip-terminal, 0.7.0+git, with python-zulip-api 0.8.2 as
 * its setup.py pins) against Parley: every request it makes, sent the way it sends them, and
 * every key it reads from the answers and events, with the type it uses it as. A key missing
 * here is a KeyError traceback in the terminal; a wrong type is a crash further in.
 *
 * Where the contract comes from (paths in the zulip-terminal repository):
 * - register: zulipterminal/model.py, Model.__init__ (initial_data_to_fetch, event_actions) and
 *   _register_desired_events; keys read: model.py, helper.py (classify_unread_counts,
 *   index_messages), ui_tools/views.py (stream and user info popups), api_types.py.
 * - messages: Model.get_messages, get_latest_message_in_topic, set_narrow (the narrow forms).
 * - events: the Model._handle_*_event methods.
 * - login: zulipterminal/cli/run.py (server_settings, fetch_api_key).
 * The python library turns every parameter that is not a string into json.dumps() text.
 */

let org: Org;
/** zulip-terminal is run by `member` (Mel Member); `member2` (Max Member) is the other person. */
let terminal: Terminal;
let channelName: string;
let channelId: number;

/** python json.dumps with its defaults: ", " and ": " separators, non-ASCII as \uXXXX. */
function pyDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pyDumps).join(", ")}]`;
  if (value !== null && typeof value === "object") return `{${Object.entries(value).map(([key, item]) => `${pyDumps(key)}: ${pyDumps(item)}`).join(", ")}}`;
  if (typeof value === "string") return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return JSON.stringify(value);
}

/** python-zulip-api's Client.call_endpoint: None values dropped, strings as they are, the rest json.dumps'd. */
function pyParams(request: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(request)) {
    if (value === null || value === undefined) continue;
    params[name] = typeof value === "string" ? value : pyDumps(value);
  }
  return params;
}

/** The User-Agent python-zulip-api sends for zulip-terminal (client "ZulipTerminal/<version> <platform>"). */
const USER_AGENT = "ZulipTerminal/0.7.0+git Linux-6.1.0-x86_64-with-glibc2.36 (Debian; 12)";

class Terminal {
  constructor(readonly person: Person) {}

  call(method: string, path: string, request: Record<string, unknown> = {}): Promise<ApiResponse> {
    return this.person.api.request(method, path, pyParams(request), { headers: { "user-agent": USER_AGENT } });
  }

  /** Model._register_desired_events(fetch_data=True), through Client.register (which adds narrow=[]). */
  register() {
    return this.call("POST", "/register", {
      event_types: EVENT_TYPES,
      narrow: [],
      fetch_event_types: FETCH_EVENT_TYPES,
      client_gravatar: true,
      apply_markdown: true,
      include_subscribers: true,
    });
  }

  /** Model.get_messages: ZT json.dumps the narrow itself; anchor None means the first unread. */
  getMessages(narrow: unknown[], { anchor = null as number | null, numBefore = 30, numAfter = 10 } = {}) {
    return this.call("GET", "/messages", {
      anchor: anchor ?? 0,
      num_before: numBefore,
      num_after: numAfter,
      apply_markdown: true,
      use_first_unread_anchor: anchor === null,
      client_gravatar: true,
      narrow: pyDumps(narrow),
    });
  }
}

// zulipterminal/model.py, Model.__init__: self.initial_data_to_fetch and the keys of self.event_actions.
const FETCH_EVENT_TYPES = ["realm", "presence", "subscription", "message", "starred_messages", "update_message_flags", "muted_topics", "realm_user", "realm_user_groups", "user_settings", "realm_emoji", "custom_profile_fields", "zulip_version"];
const EVENT_TYPES = ["message", "update_message", "reaction", "submessage", "subscription", "typing", "update_message_flags", "user_settings", "realm_emoji", "realm_user"];

/**
 * A shape: a type name ("integer", "string", "boolean", "object", "array", "null", "number",
 * alternatives joined by "|"), an object of the keys that must be there, or a one-element array
 * holding the shape of every item.
 */
type Shape = string | ObjectShape | [Shape];
interface ObjectShape {
  [key: string]: Shape;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Every place `value` departs from `shape`, as "path: problem" lines (none when it fits). */
function departures(value: unknown, shape: Shape, path = "$"): string[] {
  if (typeof shape === "string") {
    const allowed = shape.split("|");
    const kind = kindOf(value);
    return allowed.includes(kind) || (kind === "integer" && allowed.includes("number")) ? [] : [`${path}: expected ${shape}, got ${value === undefined ? "nothing" : JSON.stringify(value)?.slice(0, 80)}`];
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [`${path}: expected an array, got ${kindOf(value)}`];
    return value.flatMap((item, index) => departures(item, shape[0], `${path}[${index}]`));
  }
  if (kindOf(value) !== "object") return [`${path}: expected an object, got ${value === undefined ? "nothing" : kindOf(value)}`];
  const record = value as Record<string, unknown>;
  return Object.entries(shape).flatMap(([key, inner]) => (key in record ? departures(record[key], inner, `${path}.${key}`) : [`${path}.${key}: missing`]));
}

function expectShape(value: unknown, shape: Shape) {
  expect(departures(value, shape)).toEqual([]);
}

// Model.get_user_info and _update_users_data_from_initial_data (realm_users and cross_realm_bots
// alike). profile_data, which it reads with .get() and updates on custom profile field events, is
// there for people only: bots have no custom profile fields (reference, profile_data).
const USER: ObjectShape = {
  user_id: "integer",
  full_name: "string",
  email: "string",
  timezone: "string",
  date_joined: "string",
  is_bot: "boolean",
  bot_type: "integer|null",
  bot_owner_id: "integer|null",
  role: "integer",
  is_owner: "boolean",
  is_admin: "boolean",
  is_guest: "boolean",
};

// Model._subscribe_to_streams, StreamInfoView (ui_tools/views.py), api_types.Subscription.
const SUBSCRIPTION: ObjectShape = {
  stream_id: "integer",
  name: "string",
  color: "string",
  description: "string",
  rendered_description: "string",
  date_created: "integer",
  invite_only: "boolean",
  is_web_public: "boolean",
  subscribers: ["integer"],
  pin_to_top: "boolean",
  is_muted: "boolean",
  desktop_notifications: "boolean|null",
  stream_post_policy: "integer",
  history_public_to_subscribers: "boolean",
  message_retention_days: "integer|null",
  stream_weekly_traffic: "integer|null",
  first_message_id: "integer|null",
};

// ui_tools/messages.py MessageBox, helper.index_messages, Model.toggle_message_reaction.
const REACTION: ObjectShape = { emoji_name: "string", emoji_code: "string", reaction_type: "string", user_id: "integer" };
const MESSAGE_WITHOUT_FLAGS: ObjectShape = {
  id: "integer",
  type: "string",
  sender_id: "integer",
  sender_full_name: "string",
  sender_email: "string",
  content: "string",
  timestamp: "integer",
  subject: "string",
  topic_links: "array",
  is_me_message: "boolean",
  reactions: [REACTION],
  submessages: "array",
};
const MESSAGE: ObjectShape = { ...MESSAGE_WITHOUT_FLAGS, flags: ["string"] };
const CHANNEL_MESSAGE_EXTRA: ObjectShape = { stream_id: "integer", display_recipient: "string" };
const DIRECT_MESSAGE_EXTRA: ObjectShape = { display_recipient: [{ id: "integer", email: "string", full_name: "string" }] };

function expectMessage(message: Record<string, any>, shape: ObjectShape = MESSAGE) {
  expectShape(message, { ...shape, ...(message.type === "stream" ? CHANNEL_MESSAGE_EXTRA : DIRECT_MESSAGE_EXTRA) });
  expect(["stream", "private"]).toContain(message.type);
}

async function sendAs(person: Person, request: Record<string, unknown>): Promise<number> {
  return ok(await person.api.post("/messages", request)).id;
}

beforeAll(async () => {
  org = await seedOrg({ rateLimits: true });
  terminal = new Terminal(org.member);
  channelName = uniqueName("terminal");
  channelId = await createChannel(org, org.owner, { principals: [org.owner.id, org.member.id, org.member2.id] }, channelName);
  const first = await sendAs(org.member2, { type: "stream", to: channelName, topic: "greetings", content: "Hello **Mel** :wave:" });
  await sendAs(org.owner, { type: "stream", to: channelName, topic: "greetings", content: "Hi @**Mel Member**" });
  await sendAs(org.member2, { type: "direct", to: JSON.stringify([org.member.id]), content: "A direct message" });
  await sendAs(org.member2, { type: "direct", to: JSON.stringify([org.member.id, org.owner.id]), content: "A group message" });
  ok(await org.member.api.post(`/messages/${first}/reactions`, { emoji_name: "octopus" }));
  ok(await org.member.api.post("/messages/flags", { messages: JSON.stringify([first]), op: "add", flag: "starred" }));
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

describe("signing in (zulipterminal/cli/run.py)", () => {
  test("GET /server_settings answers what the login prompt reads, without credentials", async () => {
    const response = await fetch(new URL("/api/v1/server_settings", org.server.url));
    const body = await response.json();
    expect(response.status).toBe(200);
    expectShape(body, { realm_uri: "string", require_email_format_usernames: "boolean", email_auth_enabled: "boolean", zulip_version: "string", zulip_feature_level: "integer" });
  });

  test("POST /fetch_api_key with the login and password it prompts for gives the key it writes to zuliprc", async () => {
    const body = ok(await org.anon.post("/fetch_api_key", { username: org.member.email, password: org.member.password }));
    expect(body.api_key).toBe(org.member.apiKey);
  });
});

describe("POST /register with zulip-terminal's parameters", () => {
  let state: Record<string, any>;
  beforeAll(async () => {
    state = ok(await terminal.register());
  });

  test("every top-level key it reads is there with its type", () => {
    expectShape(state, {
      queue_id: "string",
      last_event_id: "integer",
      max_message_id: "integer",
      zulip_version: "string",
      zulip_feature_level: "integer",
      user_id: "integer",
      email: "string",
      full_name: "string",
      realm_name: "string",
      presences: "object",
      realm_users: [USER],
      cross_realm_bots: [USER],
      subscriptions: [SUBSCRIPTION],
      muted_topics: "array",
      realm_user_groups: [{ id: "integer", name: "string" }],
      unread_msgs: {
        mentions: ["integer"],
        pms: [{ sender_id: "integer", unread_message_ids: ["integer"] }],
        streams: [{ stream_id: "integer", topic: "string", unread_message_ids: ["integer"] }],
        huddles: [{ user_ids_string: "string", unread_message_ids: ["integer"] }],
      },
      user_settings: { send_private_typing_notifications: "boolean", twenty_four_hour_time: "boolean", pm_content_in_desktop_notifications: "boolean" },
      realm_emoji: "object",
      custom_profile_fields: "array",
      starred_messages: ["integer"],
      realm_allow_message_editing: "boolean",
      realm_allow_edit_history: "boolean",
      realm_message_retention_days: "integer|null",
      max_stream_name_length: "integer",
      max_topic_length: "integer",
      max_message_length: "integer",
      server_typing_started_wait_period_milliseconds: "integer",
      server_typing_stopped_wait_period_milliseconds: "integer",
      server_typing_started_expiry_period_milliseconds: "integer",
      server_presence_offline_threshold_seconds: "integer",
      server_presence_ping_interval_seconds: "integer",
    });
    // ZT takes feature level 0 for a pre-3.0 server and then reads long-gone keys.
    expect(state.zulip_feature_level).toBeGreaterThanOrEqual(226);
  });

  test("the people and channels it shows: itself, the others, and its channel with its subscribers", () => {
    expect(state.user_id).toBe(org.member.id);
    for (const user of state.realm_users.filter((each: any) => !each.is_bot)) expectShape(user, { profile_data: "object" });
    expect(state.realm_users.map((user: any) => user.user_id)).toEqual(expect.arrayContaining([org.owner.id, org.member.id, org.member2.id]));
    const channel = state.subscriptions.find((sub: any) => sub.stream_id === channelId);
    expect(channel).toMatchObject({ name: channelName, is_muted: false, pin_to_top: false });
    expect([...channel.subscribers].sort()).toEqual([org.owner.id, org.member.id, org.member2.id].sort());
    // helper.canonicalize_color accepts only #rgb and #rrggbb.
    for (const sub of state.subscriptions) expect(sub.color).toMatch(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i);
    // StreamInfoView looks stream_post_policy up in STREAM_POST_POLICY (1 to 4).
    for (const sub of state.subscriptions) expect([1, 2, 3, 4]).toContain(sub.stream_post_policy);
  });

  test("unread counts as classify_unread_counts reads them: per channel topic, per sender, per group", () => {
    const unread = state.unread_msgs;
    const topic = unread.streams.find((entry: any) => entry.stream_id === channelId && entry.topic === "greetings");
    expect(topic.unread_message_ids).toHaveLength(2);
    expect(unread.pms.find((entry: any) => entry.sender_id === org.member2.id).unread_message_ids).toHaveLength(1);
    // user_ids_string: every participant, the viewer included, comma-separated.
    const group = unread.huddles[0];
    expect(group.user_ids_string.split(",").map(Number).sort()).toEqual([org.owner.id, org.member.id, org.member2.id].sort());
    expect(unread.mentions).toHaveLength(1);
  });

  test("muted_topics entries are [channel, topic, date muted], the form for feature level 1 and later", async () => {
    ok(await org.member.api.post("/user_topics", { stream_id: channelId, topic: "muted here", visibility_policy: 1 }));
    const muted = ok(await terminal.register()).muted_topics;
    ok(await org.member.api.post("/user_topics", { stream_id: channelId, topic: "muted here", visibility_policy: 0 }));
    // model.py asserts set(map(len, muted_topics)) in (set(), {2}, {3}).
    expect(muted).toEqual([[channelName, "muted here", expect.any(Number)]]);
  });

  test("starred_messages lists what is starred", () => {
    expect(state.starred_messages).toHaveLength(1);
  });
});

describe("GET /messages as zulip-terminal asks", () => {
  test("the home view from the first unread: messages with every key it reads, and the anchor it keeps", async () => {
    const body = ok(await terminal.getMessages([]));
    expectShape(body, { messages: "array", anchor: "integer", found_newest: "boolean" });
    expect(body.messages.length).toBeGreaterThanOrEqual(4);
    for (const message of body.messages) expectMessage(message);
    const firstUnread = body.messages.find((message: any) => !message.flags.includes("read"));
    expect(body.anchor).toBe(firstUnread.id);
    const reacted = body.messages.find((message: any) => message.reactions.length > 0);
    expect(reacted.reactions).toEqual([{ emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji", user_id: org.member.id }]);
    expect(reacted.flags).toContain("starred");
  });

  test("with nothing unread, the anchor is 10000000000000000, which ZT recognises as 'none'", async () => {
    const body = ok(await new Terminal(org.admin).getMessages([]));
    expect(body.anchor).toBe(10000000000000000);
  });

  // Model.set_narrow's forms, each as a list of [operator, operand] pairs.
  test.each([
    // The channel's creation notice and the two greetings.
    ["channel", () => [["stream", channelName]], 3],
    ["topic", () => [["stream", channelName], ["topic", "greetings"]], 2],
    ["all direct messages", () => [["is", "private"]], 2],
    ["one person (pm-with by e-mail)", () => [["pm-with", org.member2.email]], 1],
    // A group is "a@x, b@y": ZT joins e-mails with ", " and splits them back the same way.
    ["a group (pm-with, ', '-separated)", () => [["pm-with", `${org.member2.email}, ${org.owner.email}`]], 1],
    ["starred", () => [["is", "starred"]], 1],
    ["mentions", () => [["is", "mentioned"]], 1],
    ["search within a channel", () => [["stream", channelName], ["search", "hello"]], 1],
  ] as const)("narrow: %s", async (_name, narrow, count) => {
    const body = ok(await terminal.getMessages(narrow() as unknown[]));
    expect(body.messages).toHaveLength(count);
    for (const message of body.messages) expectMessage(message);
  });

  test("searching from the newest (anchor 10000000000000000) and loading older and newer pages", async () => {
    const search = ok(await terminal.call("GET", "/messages", { anchor: 10000000000000000, num_before: 30, num_after: 0, apply_markdown: true, use_first_unread_anchor: false, client_gravatar: true, narrow: pyDumps([["search", "message"]]) }));
    expect(search.messages.map((message: any) => message.content)).toEqual(["<p>A direct message</p>", "<p>A group message</p>"]);
    const all = ok(await terminal.getMessages([], { anchor: 0, numBefore: 0, numAfter: 100 })).messages;
    const older = ok(await terminal.getMessages([], { anchor: all[2].id, numBefore: 30, numAfter: 0 }));
    expect(older.messages.map((message: any) => message.id)).toEqual(all.slice(0, 3).map((message: any) => message.id));
  });

  test("the latest message of a topic, with the narrow as operator/operand objects and a channel ID", async () => {
    // Model.get_latest_message_in_topic, used when editing a topic.
    const body = ok(await terminal.call("GET", "/messages", { anchor: 10000000000000000, num_before: 1, num_after: 0, narrow: [{ operator: "stream", operand: channelId }, { operator: "topic", operand: "greetings" }] }));
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0].content).toContain("Mel Member");
  });

  test("GET /messages/{id} gives raw_content, which quoting a message uses", async () => {
    const [message] = ok(await terminal.getMessages([["stream", channelName], ["topic", "greetings"]])).messages;
    const body = ok(await terminal.call("GET", `/messages/${message.id}`));
    expect(body.raw_content).toBe("Hello **Mel** :wave:");
  });

  test("GET /users/me/{stream_id}/topics: topics with their names, newest first (the topic list, 't')", async () => {
    // Model._fetch_topics_in_streams reads topic["name"]; an empty list leaves ZT's topic view
    // without a focus, and it crashes (IndexError), so the channel's topics must all be there.
    const body = ok(await terminal.call("GET", `/users/me/${channelId}/topics`));
    expectShape(body, { topics: [{ name: "string", max_id: "integer" }] });
    expect(body.topics.map((topic: any) => topic.name)).toEqual(expect.arrayContaining(["greetings", "channel events"]));
    expect(body.topics.map((topic: any) => topic.max_id)).toEqual([...body.topics.map((topic: any) => topic.max_id)].sort((a, b) => b - a));
  });

  test("GET /streams/{stream_id}/email_address gives the address the channel info popup shows", async () => {
    expectShape(ok(await terminal.call("GET", `/streams/${channelId}/email_address`)), { email: "string" });
  });

  test("a narrow it cannot have built, and an unknown message, are clear 400s", async () => {
    expectError(await terminal.getMessages([["stream", "no such channel"]]), "BAD_REQUEST");
    expectError(await terminal.call("GET", "/messages/999999"), "BAD_REQUEST");
  });
});

describe("what zulip-terminal sends, and the events it handles", () => {
  let queueId: string;
  /** Events of one type on ZT's queue since the last call. */
  let seen = -1;
  async function next(type: string): Promise<Array<Record<string, any>>> {
    const events = await pending(org.member, queueId, seen);
    if (events.length > 0) seen = events.at(-1)!.id;
    return events.filter((event) => event.type === type);
  }

  beforeAll(async () => {
    queueId = ok(await terminal.register()).queue_id;
  });

  test("a channel message (StreamComposition: to a channel name, 'subject', read_by_sender) and its message event", async () => {
    const body = ok(await terminal.call("POST", "/messages", { type: "stream", to: channelName, subject: "from the terminal", content: "Typed in **ZT**", read_by_sender: true }));
    expect(body.id).toEqual(expect.any(Number));
    const [event] = await next("message");
    // _handle_message_event reads the flags beside the message, not in it.
    expect(event.flags).toContain("read");
    expectMessage(event.message, MESSAGE_WITHOUT_FLAGS);
    expect(event.message).toMatchObject({ id: body.id, subject: "from the terminal", stream_id: channelId, display_recipient: channelName, content: "<p>Typed in <strong>ZT</strong></p>" });
  });

  test("a direct message (PrivateComposition: 'private', user IDs) and its message event", async () => {
    const body = ok(await terminal.call("POST", "/messages", { type: "private", to: [org.member2.id], content: "Hi Max", read_by_sender: true }));
    const [event] = await next("message");
    expectMessage(event.message, MESSAGE_WITHOUT_FLAGS);
    expect(event.message.id).toBe(body.id);
    expect(event.message.display_recipient.map((user: any) => user.id).sort()).toEqual([org.member.id, org.member2.id].sort());
  });

  test("typing notifications (DirectTypingNotification: to, op) reach the other person with sender.email and sender.user_id", async () => {
    const otherQueue = ok(await new Terminal(org.member2).register()).queue_id;
    ok(await terminal.call("POST", "/typing", { to: [org.member2.id], op: "start" }));
    ok(await terminal.call("POST", "/typing", { to: [org.member2.id], op: "stop" }));
    const typing = (await pending(org.member2, otherQueue)).filter((event) => event.type === "typing");
    expect(typing.map((event) => event.op)).toEqual(["start", "stop"]);
    for (const event of typing) expectShape(event, { op: "string", sender: { user_id: "integer", email: "string" } });
    expect(typing[0].sender).toMatchObject({ user_id: org.member.id, email: org.member.email });
  });

  test("editing a direct message: PATCH /messages/{id} with message_id also in the body; update_message with the rendered content", async () => {
    const id = await sendAs(org.member, { type: "direct", to: JSON.stringify([org.member2.id]), content: "Draft" });
    await next("message");
    ok(await terminal.call("PATCH", `/messages/${id}`, { message_id: id, content: "Final *words*" }));
    const [event] = await next("update_message");
    expectShape(event, { message_id: "integer", rendered_content: "string", is_me_message: "boolean" });
    expect(event).toMatchObject({ message_id: id, rendered_content: "<p>Final <em>words</em></p>" });
  });

  test("moving a topic with notifications (StreamMessageUpdateRequest); update_message with what ZT re-indexes by", async () => {
    const id = await sendAs(org.member, { type: "stream", to: channelName, topic: "old name", content: "Move me" });
    await next("message");
    ok(await terminal.call("PATCH", `/messages/${id}`, { message_id: id, propagate_mode: "change_later", topic: "new name", send_notification_to_old_thread: false, send_notification_to_new_thread: true }));
    const [event] = await next("update_message");
    expectShape(event, { message_id: "integer", message_ids: ["integer"], stream_id: "integer", orig_subject: "string", subject: "string", propagate_mode: "string" });
    expect(event).toMatchObject({ message_ids: [id], stream_id: channelId, orig_subject: "old name", subject: "new name", propagate_mode: "change_later" });
  });

  test("editing content and topic at once, as the edit box sends it", async () => {
    const id = await sendAs(org.member, { type: "stream", to: channelName, topic: "typo", content: "Teh text" });
    await next("message");
    ok(await terminal.call("PATCH", `/messages/${id}`, { message_id: id, propagate_mode: "change_one", topic: "fixed", content: "The text", send_notification_to_old_thread: false, send_notification_to_new_thread: false }));
    const [event] = await next("update_message");
    expect(event).toMatchObject({ message_id: id, rendered_content: "<p>The text</p>", subject: "fixed", orig_subject: "typo" });
    // The edit history popup (EditHistoryView) reads content, topic, timestamp, user_id and the prev_ fields.
    const history = ok(await terminal.call("GET", `/messages/${id}/history`)).message_history;
    for (const snapshot of history) expectShape(snapshot, { content: "string", topic: "string", timestamp: "integer", user_id: "integer|null" });
    expect(history.map((snapshot: any) => [snapshot.topic, snapshot.content])).toEqual([["typo", "Teh text"], ["fixed", "The text"]]);
    expect(history[1]).toMatchObject({ prev_content: "Teh text", prev_topic: "typo", user_id: org.member.id });
  });

  test("reactions: toggled with name, code, type and a string message_id in the body; the events carry user_id", async () => {
    const id = await sendAs(org.member2, { type: "stream", to: channelName, topic: "react", content: "React to me" });
    await next("message");
    const spec = { emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji", message_id: String(id) };
    ok(await terminal.call("POST", `/messages/${id}/reactions`, spec));
    ok(await terminal.call("DELETE", `/messages/${id}/reactions`, spec));
    const events = await next("reaction");
    expect(events.map((event) => event.op)).toEqual(["add", "remove"]);
    for (const event of events) {
      expectShape(event, { message_id: "integer", op: "string", ...REACTION });
      // get_user_id_from_reaction reads user.id, user.user_id or user_id, and asserts `user` is a dict.
      if ("user" in event) expectShape(event.user, { user_id: "integer" });
      expect(event).toMatchObject({ message_id: id, emoji_code: "1f44d", user_id: org.member.id });
    }
  });

  test("the built-in :zulip: emoji, which its picker sends as zulip_extra_emoji: added, shown as svc_extra_emoji, removed", async () => {
    // Model.generate_all_emoji_data: {"zulip": {code: "zulip", type: "zulip_extra_emoji"}}.
    const id = await sendAs(org.member2, { type: "stream", to: channelName, topic: "react", content: "Extra" });
    await next("message");
    const spec = { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji", message_id: String(id) };
    ok(await terminal.call("POST", `/messages/${id}/reactions`, spec));
    const { message } = ok(await terminal.call("GET", `/messages/${id}`));
    expect(message.reactions).toEqual([{ emoji_name: "zulip", emoji_code: "zulip", reaction_type: "svc_extra_emoji", user_id: org.member.id }]);
    ok(await terminal.call("DELETE", `/messages/${id}/reactions`, spec));
    expect(ok(await terminal.call("GET", `/messages/${id}`)).message.reactions).toEqual([]);
    expect((await next("reaction")).map((event) => [event.op, event.emoji_code])).toEqual([["add", "zulip"], ["remove", "zulip"]]);
  });

  test("a new custom emoji: realm_emoji event keyed by ID with name and deactivated; reacting with it as the picker does", async () => {
    const form = new FormData();
    form.append("file-0", new Blob([png()], { type: "image/png" }), "emoji.png");
    const upload = await fetch(new URL("/api/v1/realm/emoji/terminal_dot", org.server.url), { method: "POST", headers: { authorization: `Basic ${btoa(`${org.owner.email}:${org.owner.apiKey}`)}` }, body: form });
    expect(upload.status).toBe(200);
    const [event] = await next("realm_emoji");
    // Model.generate_all_emoji_data: {code: key, name, deactivated} of each entry.
    for (const emoji of Object.values(event.realm_emoji)) expectShape(emoji, { name: "string", deactivated: "boolean" });
    const [code] = Object.entries(event.realm_emoji).find(([, emoji]: [string, any]) => emoji.name === "terminal_dot")!;
    const id = await sendAs(org.member2, { type: "stream", to: channelName, topic: "react", content: "Custom" });
    await next("message");
    ok(await terminal.call("POST", `/messages/${id}/reactions`, { emoji_name: "terminal_dot", emoji_code: code, reaction_type: "realm_emoji", message_id: String(id) }));
    const [reaction] = await next("reaction");
    expect(reaction).toMatchObject({ op: "add", emoji_code: code, reaction_type: "realm_emoji", user_id: org.member.id });
  });

  test("marking read and starring (MessagesFlagChange); update_message_flags with op, flag, messages and all", async () => {
    const id = await sendAs(org.member2, { type: "stream", to: channelName, topic: "flags", content: "Read me" });
    await next("message");
    ok(await terminal.call("POST", "/messages/flags", { messages: [id], flag: "read", op: "add" }));
    ok(await terminal.call("POST", "/messages/flags", { messages: [id], flag: "starred", op: "add" }));
    ok(await terminal.call("POST", "/messages/flags", { messages: [id], flag: "starred", op: "remove" }));
    const events = await next("update_message_flags");
    expect(events.map((event) => [event.flag, event.op])).toEqual([["read", "add"], ["starred", "add"], ["starred", "remove"]]);
    for (const event of events) {
      expectShape(event, { op: "string", flag: "string", messages: ["integer"], all: "boolean" });
      expect(event).toMatchObject({ messages: [id], all: false });
    }
  });

  test("muting, pinning and notifying a channel (POST /users/me/subscriptions/properties); subscription update events", async () => {
    const change = (property: string, value: boolean) => terminal.call("POST", "/users/me/subscriptions/properties", { subscription_data: [{ stream_id: channelId, property, value }] });
    ok(await change("is_muted", true));
    ok(await change("is_muted", false));
    ok(await change("pin_to_top", true));
    ok(await change("desktop_notifications", true));
    const events = await next("subscription");
    for (const event of events) expectShape(event, { op: "string", stream_id: "integer", property: "string", value: "boolean" });
    // ZT applies in_home_view (negated) and is_muted alike, so either or both may come.
    const muting = events.filter((event) => event.property === "is_muted" || event.property === "in_home_view");
    expect(muting.map((event) => (event.property === "is_muted" ? event.value : !event.value))).toContain(true);
    expect(events.filter((event) => event.property === "pin_to_top").map((event) => event.value)).toEqual([true]);
    expect(events.filter((event) => event.property === "desktop_notifications").map((event) => event.value)).toEqual([true]);
    expect(ok(await terminal.register()).subscriptions.find((sub: any) => sub.stream_id === channelId)).toMatchObject({ is_muted: false, pin_to_top: true, desktop_notifications: true });
  });

  test("someone joining its channel: peer_add with stream_ids and user_ids", async () => {
    ok(await org.owner.api.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: channelName }]), principals: JSON.stringify([org.moderator.id]) }));
    const [event] = (await next("subscription")).filter((each) => each.op === "peer_add");
    expectShape(event, { stream_ids: ["integer"], user_ids: ["integer"] });
    expect(event).toMatchObject({ stream_ids: [channelId], user_ids: [org.moderator.id] });
  });

  test("a changed setting it follows: user_settings update with property and value", async () => {
    ok(await org.member.api.patch("/settings", { twenty_four_hour_time: "true" }));
    const events = (await next("user_settings")).filter((event) => event.property === "twenty_four_hour_time");
    expect(events).toHaveLength(1);
    expectShape(events[0], { op: "string", property: "string", value: "boolean" });
    expect(events[0]).toMatchObject({ op: "update", value: true });
  });

  test("someone renamed: realm_user update whose person has user_id and the changed field", async () => {
    ok(await org.owner.api.patch(`/users/${org.member2.id}`, { full_name: "Max Renamed" }));
    const [event] = await next("realm_user");
    expect(event).toMatchObject({ op: "update", person: { user_id: org.member2.id, full_name: "Max Renamed" } });
  });

  test("the presence ping every server_presence_ping_interval_seconds: its answer is what the user list is built from", async () => {
    // Model._notify_server_of_presence; _start_presence_updates puts response["presences"] in
    // place of register's and _update_users_data_from_initial_data reads, per e-mail, each
    // client's status and timestamp (skipping "aggregated"); get_user_info reads aggregated.timestamp.
    ok(await new Terminal(org.member2).call("POST", "/users/me/presence", { status: "idle", new_user_input: false }));
    const body = ok(await terminal.call("POST", "/users/me/presence", { status: "active", new_user_input: true }));
    expectShape(body, { presences: "object" });
    for (const [email, clients] of Object.entries<Record<string, any>>(body.presences)) {
      expect(email).toContain("@");
      expectShape(clients, { aggregated: { timestamp: "integer|number" } });
      for (const [client, presence] of Object.entries<any>(clients)) {
        if (client === "aggregated") continue;
        expectShape(presence, { status: "string", timestamp: "integer|number" });
        // The statuses it ranks (active > idle > offline) when aggregating clients itself.
        expect(["active", "idle", "offline"]).toContain(presence.status);
      }
    }
    const statuses = (email: string) => Object.entries<any>(body.presences[email]).filter(([client]) => client !== "aggregated").map(([, presence]) => presence.status);
    expect(statuses(org.member.email)).toContain("active");
    expect(statuses(org.member2.email)).toHaveLength(1);
    const now = Date.now() / 1000;
    expect(Math.abs(body.presences[org.member.email].aggregated.timestamp - now)).toBeLessThan(60);
    // And register's presences, which the list starts from, has the same form.
    expect(Object.keys(ok(await terminal.register()).presences)).toEqual(expect.arrayContaining([org.member.email, org.member2.email]));
  });

  test("a queue that is gone answers BAD_EVENT_QUEUE_ID, on which ZT registers again; DELETE /events ends its own", async () => {
    const own = ok(await terminal.register()).queue_id;
    ok(await terminal.call("DELETE", "/events", { queue_id: own }));
    expectError(await terminal.call("GET", "/events", { queue_id: own, last_event_id: -1 }), "BAD_EVENT_QUEUE_ID");
    // On a connection error the library retries the poll with dont_block=true.
    expect(ok(await terminal.call("GET", "/events", { queue_id: queueId, last_event_id: seen, dont_block: true })).events).toEqual(expect.any(Array));
  });
});
