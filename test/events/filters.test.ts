import { describe, expect, test } from "bun:test";
import { eventsForQueue, type Delivery, type FilterContext, shapeStore } from "../../src/events/filters";
import { checkEventNarrow, matchesEventNarrow, type MessageLike } from "../../src/events/eventNarrow";
import type { QueueSpec } from "../../src/events/spec";
import { queueSpec as spec } from "./queueSpec";
import type { Emitted } from "../../src/db/types";
import type { AnyEvent, DeliveryOptions } from "../../src/events/types";
import { defaultUserSettings } from "../../src/model/userSettings";

/**
 * The per-queue rules for event kinds whose actions arrive with later features (messages,
 * typing, deletions, channels, groups, linkifiers): every capability, both ways, on the filter.
 */


const delivery = (queueSpec: QueueSpec, extra: Partial<Delivery> = {}): Delivery => ({ queueId: "q1", userId: 7, spec: queueSpec, recipient: true, ...extra });

const context: FilterContext = {
  emptyTopicDisplayName: () => "general chat",
  userSettings: () => ({ ...defaultUserSettings(), enable_stream_desktop_notifications: true, wildcard_mentions_notify: false }),
  userGroup: (id) => (id === 30 ? ({ id: 30, name: "designers", deactivated: false } as never) : id === 31 ? ({ id: 31, name: "old", deactivated: true } as never) : undefined),
  sharedShape: shapeStore(),
};

const addressed = (event: Record<string, unknown>, options?: DeliveryOptions): Emitted => ({ event: event as unknown as AnyEvent, userIds: [7], options });
const deliver = (event: Record<string, unknown>, queueSpec: QueueSpec, options?: DeliveryOptions, extra?: Partial<Delivery>) =>
  eventsForQueue(addressed(event, options), delivery(queueSpec, extra), context) as Array<Record<string, any>>;

const channelMessage = (overrides: Partial<MessageLike> & Record<string, unknown> = {}) => ({
  type: "message",
  message: {
    id: 100,
    type: "stream",
    display_recipient: "Denmark",
    stream_id: 3,
    subject: "castle",
    sender_id: 9,
    sender_email: "hamlet@example.com",
    content: "**hi**",
    rendered_content: "<p><strong>hi</strong></p>",
    avatar_url: "https://secure.gravatar.com/avatar/abc?d=identicon&version=1",
    ...overrides,
  },
});
const directMessage = () => channelMessage({ type: "private", display_recipient: [{ id: 7 }], stream_id: undefined, subject: "" });

describe("event_types", () => {
  test("a queue gets only the types it registered for, and every type when it named none", () => {
    const event = { type: "user_settings", op: "update", property: "enter_sends", value: true };
    expect(deliver(event, spec({ eventTypes: ["realm_user"] }))).toEqual([]);
    expect(deliver(event, spec({ eventTypes: ["user_settings"] }))).toEqual([event]);
    expect(deliver(event, spec())).toEqual([event]);
    expect(deliver(event, spec({ eventTypes: [] }))).toEqual([]);
  });
});

describe("narrow", () => {
  test("rejects operators events cannot be filtered by, naming them", () => {
    expect(() => checkEventNarrow([["search", "x"]])).toThrow("Operator search not supported.");
    expect(() => checkEventNarrow([["is", "followed"]])).toThrow("is:followed");
    expect(() => checkEventNarrow([["channel"]])).toThrow("operator and an operand");
    expect(checkEventNarrow([["stream", "Denmark"], ["topic", "castle"]])).toEqual([["stream", "Denmark"], ["topic", "castle"]]);
  });

  const message = channelMessage().message as MessageLike;
  const dm = directMessage().message as MessageLike;
  const cases: Array<[string[][], MessageLike, string[], boolean]> = [
    [[["channel", "denmark"]], message, [], true],
    [[["stream", "Denmark"]], message, [], true],
    [[["channel", "3"]], message, [], true],
    [[["channel", "Sweden"]], message, [], false],
    [[["channel", "Denmark"]], dm, [], false],
    [[["channel", "Denmark"], ["topic", "CASTLE"]], message, [], true],
    [[["channel", "Denmark"], ["topic", "moat"]], message, [], false],
    [[["topic", "castle"]], dm, [], false],
    [[["sender", "Hamlet@example.com"]], message, [], true],
    [[["sender", "9"]], message, [], true],
    [[["sender", "ophelia@example.com"]], message, [], false],
    [[["is", "dm"]], dm, [], true],
    [[["is", "private"]], dm, [], true],
    [[["is", "dm"]], message, [], false],
    [[["is", "starred"]], message, ["starred"], true],
    [[["is", "starred"]], message, ["read"], false],
    [[["is", "mentioned"]], message, ["stream_wildcard_mentioned"], true],
    [[["is", "mentioned"]], message, [], false],
    [[["is", "alerted"]], message, ["has_alert_word"], true],
    [[["is", "unread"]], message, ["read"], false],
    [[["is", "unread"]], message, [], true],
    [[["is", "resolved"]], { ...message, subject: "✔ castle" }, [], true],
    [[["is", "resolved"]], message, [], false],
    [[], dm, [], true],
  ];
  for (const [narrow, target, flags, expected] of cases) {
    test(`${JSON.stringify(narrow)} ${expected ? "matches" : "does not match"} a ${target.type} message flagged ${JSON.stringify(flags)}`, () => {
      expect(matchesEventNarrow(checkEventNarrow(narrow), target, flags)).toBe(expected);
    });
  }

  test("filters message events only; other events pass a narrowed queue", () => {
    const narrowed = spec({ narrow: [["is", "dm"]] });
    expect(deliver(channelMessage(), narrowed)).toEqual([]);
    expect(deliver(directMessage(), narrowed)).toHaveLength(1);
    expect(deliver({ type: "realm_user", op: "update", person: { user_id: 1, full_name: "X" } }, narrowed)).toHaveLength(1);
  });

  test("uses the queue's own user's flags", () => {
    const options: DeliveryOptions = { flagsByUser: new Map([[7, ["starred"]], [8, []]]) };
    const starred = spec({ narrow: [["is", "starred"]] });
    expect(deliver(channelMessage(), starred, options)[0].flags).toEqual(["starred"]);
    expect(deliver(channelMessage(), starred, options, { userId: 8 })).toEqual([]);
  });
});

describe("message events", () => {
  test("all_public_streams queues of non-recipients get the message with no flags", () => {
    const options: DeliveryOptions = { flagsByUser: new Map([[8, ["read"]]]), publicChannel: true };
    expect(deliver(channelMessage(), spec({ allPublicStreams: true }), options, { userId: 8, recipient: false })[0].flags).toEqual([]);
    expect(deliver(channelMessage(), spec(), options, { userId: 8 })[0].flags).toEqual(["read"]);
  });

  test("apply_markdown picks rendered HTML or the markdown source; rendered_content is not sent", () => {
    const html = deliver(channelMessage(), spec({ applyMarkdown: true }))[0].message;
    expect(html).toMatchObject({ content: "<p><strong>hi</strong></p>", content_type: "text/html" });
    const markdown = deliver(channelMessage(), spec({ applyMarkdown: false }))[0].message;
    expect(markdown).toMatchObject({ content: "**hi**", content_type: "text/x-markdown" });
    expect(html.rendered_content).toBeUndefined();
    expect(markdown.rendered_content).toBeUndefined();
  });

  test("client_gravatar leaves Gravatar URLs to the client and keeps uploaded avatars", () => {
    expect(deliver(channelMessage(), spec({ clientGravatar: true }))[0].message.avatar_url).toBeNull();
    expect(deliver(channelMessage(), spec({ clientGravatar: false }))[0].message.avatar_url).toContain("gravatar");
    const uploaded = channelMessage({ avatar_url: "https://chat.example.com/user_avatars/1/abc.png" } as never);
    expect(deliver(uploaded, spec({ clientGravatar: true }))[0].message.avatar_url).toBe("https://chat.example.com/user_avatars/1/abc.png");
  });

  test("local_id goes only to the queue that sent the message", () => {
    const options: DeliveryOptions = { localEcho: { queueId: "q1", localId: "12.01" } };
    const sender = { userId: 9 };
    expect(deliver(channelMessage(), spec(), options, sender)[0].local_id).toBe("12.01");
    expect(deliver(channelMessage(), spec(), options, { ...sender, queueId: "q2" })[0].local_id).toBeUndefined();
    // A queue ID naming someone else's queue echoes nothing to it.
    expect(deliver(channelMessage(), spec(), options, { userId: 7 })[0].local_id).toBeUndefined();
  });

  test("the shared event is never modified", () => {
    const event = channelMessage();
    const before = structuredClone(event);
    deliver(event, spec({ applyMarkdown: true, clientGravatar: true }), { localEcho: { queueId: "q1", localId: "1" } });
    expect(event).toEqual(before);
  });
});

describe("capability effects", () => {
  test("empty_topic_name: without it the empty topic reads as the realm's display name", () => {
    const message = channelMessage({ subject: "" });
    expect(deliver(message, spec({}, ["empty_topic_name"]))[0].message.subject).toBe("");
    expect(deliver(message, spec())[0].message.subject).toBe("general chat");
    expect(deliver({ type: "typing", op: "start", stream_id: 3, topic: "" }, spec({}, ["stream_typing_notifications"]))[0].topic).toBe("general chat");
    expect(deliver({ type: "update_message", subject: "", orig_subject: "x" }, spec())[0]).toMatchObject({ subject: "general chat", orig_subject: "x" });
    expect(deliver({ type: "user_topic", topic_name: "" }, spec({}, ["empty_topic_name"]))[0].topic_name).toBe("");
  });

  test("stream_typing_notifications: channel typing only for clients that declare it; direct typing always", () => {
    const channelTyping = { type: "typing", op: "start", stream_id: 3, topic: "castle" };
    expect(deliver(channelTyping, spec({}, ["stream_typing_notifications"]))).toHaveLength(1);
    expect(deliver(channelTyping, spec())).toEqual([]);
    expect(deliver({ type: "typing", op: "start", recipients: [] }, spec())).toHaveLength(1);
  });

  test("bulk_message_deletion: one event with message_ids, or one event per message", () => {
    const event = { type: "delete_message", message_type: "stream", stream_id: 3, topic: "castle", message_ids: [4, 5] };
    expect(deliver(event, spec({}, ["bulk_message_deletion", "empty_topic_name"]))).toEqual([event]);
    const single = deliver(event, spec({}, ["empty_topic_name"]));
    expect(single).toEqual([
      { type: "delete_message", message_type: "stream", stream_id: 3, topic: "castle", message_id: 4 },
      { type: "delete_message", message_type: "stream", stream_id: 3, topic: "castle", message_id: 5 },
    ]);
  });

  test("linkifier_url_template: realm_linkifiers events only for clients that declare it", () => {
    const event = { type: "realm_linkifiers", realm_linkifiers: [] };
    expect(deliver(event, spec({}, ["linkifier_url_template"]))).toEqual([event]);
    expect(deliver(event, spec())).toEqual([]);
  });

  test("user_settings_object: the legacy settings events only for clients without it", () => {
    const display = { type: "update_display_settings", user: "a@example.com", setting_name: "emojiset", setting: "text" };
    const notifications = { type: "update_global_notifications", user: "a@example.com", notification_name: "enable_sounds", setting: false };
    expect(deliver(display, spec({}, ["user_settings_object"]))).toEqual([]);
    expect(deliver(notifications, spec({}, ["user_settings_object"]))).toEqual([]);
    expect(deliver(display, spec())).toEqual([display]);
    expect(deliver(notifications, spec())).toEqual([notifications]);
  });

  test("user_list_incomplete: the Unknown-user placeholder is dropped for clients that declare it, and its mark never sent", () => {
    const placeholder = { type: "realm_user", op: "add", person: { user_id: 12, full_name: "Unknown user", delivery_email: null }, inaccessible_user: true };
    expect(deliver(placeholder, spec({}, ["user_list_incomplete"]))).toEqual([]);
    expect(deliver(placeholder, spec())).toEqual([{ type: "realm_user", op: "add", person: placeholder.person }]);
  });

  test("client_gravatar on realm_user: null only where the receiver may see the address, and the internal mark never sent", () => {
    const url = "https://secure.gravatar.com/avatar/abc?d=identicon&version=1";
    const visible = { type: "realm_user", op: "add", person: { user_id: 3, delivery_email: "a@example.com", avatar_url: url } };
    const hidden = { type: "realm_user", op: "add", person: { user_id: 3, delivery_email: null, avatar_url: url } };
    expect(deliver(visible, spec({ clientGravatar: true }))[0].person.avatar_url).toBeNull();
    expect(deliver(visible, spec())[0].person.avatar_url).toBe(url);
    expect(deliver(hidden, spec({ clientGravatar: true }))[0].person.avatar_url).toBe(url);
    const computable = { type: "realm_user", op: "update", person: { user_id: 3, avatar_url: url, avatar_version: 1 }, gravatar_computable: true };
    expect(deliver(computable, spec({ clientGravatar: true }))).toEqual([{ type: "realm_user", op: "update", person: { user_id: 3, avatar_url: null, avatar_version: 1 } }]);
    expect(deliver(computable, spec())).toEqual([{ type: "realm_user", op: "update", person: { user_id: 3, avatar_url: url, avatar_version: 1 } }]);
    const notComputable = { type: "realm_user", op: "update", person: { user_id: 3, avatar_url: url, avatar_version: 1 } };
    expect(deliver(notComputable, spec({ clientGravatar: true }))[0].person.avatar_url).toBe(url);
  });

  test("include_deactivated_groups: without it a deactivation is a remove, a reactivation an add, and a dead group's updates vanish", () => {
    const deactivate = { type: "user_group", op: "update", group_id: 30, data: { deactivated: true } };
    const reactivate = { type: "user_group", op: "update", group_id: 30, data: { deactivated: false } };
    const renameDead = { type: "user_group", op: "update", group_id: 31, data: { name: "older" } };
    const renameLive = { type: "user_group", op: "update", group_id: 30, data: { name: "design" } };
    const capable = spec({}, ["include_deactivated_groups"]);
    for (const event of [deactivate, reactivate, renameDead]) expect(deliver(event, capable)).toEqual([event]);
    expect(deliver(deactivate, spec())).toEqual([{ type: "user_group", op: "remove", group_id: 30 }]);
    expect(deliver(reactivate, spec())).toEqual([{ type: "user_group", op: "add", group: context.userGroup(30) }]);
    expect(deliver(renameDead, spec())).toEqual([]);
    expect(deliver(renameLive, spec())).toEqual([renameLive]);
  });

  test("archived_channels: archived channels' data only for clients that declare it", () => {
    const event = { type: "stream", op: "create", streams: [{ stream_id: 1, is_archived: true }, { stream_id: 2, is_archived: false }] };
    expect(deliver(event, spec({}, ["archived_channels"]))).toEqual([event]);
    expect(deliver(event, spec())).toEqual([{ ...event, streams: [{ stream_id: 2, is_archived: false }] }]);
    const onlyArchived = { type: "subscription", op: "add", subscriptions: [{ stream_id: 1, is_archived: true }] };
    expect(deliver(onlyArchived, spec({}, ["notification_settings_null"]))).toEqual([]);
    expect(deliver(onlyArchived, spec({}, ["notification_settings_null", "archived_channels"]))).toEqual([onlyArchived]);
  });

  test("notification_settings_null: without it an inherited (null) channel setting is the user's own value", () => {
    const add = { type: "subscription", op: "add", subscriptions: [{ stream_id: 2, desktop_notifications: null, wildcard_mentions_notify: null, push_notifications: true }] };
    expect(deliver(add, spec({}, ["notification_settings_null"]))).toEqual([add]);
    expect(deliver(add, spec())[0].subscriptions[0]).toEqual({ stream_id: 2, desktop_notifications: true, wildcard_mentions_notify: false, push_notifications: true });
    const update = { type: "subscription", op: "update", stream_id: 2, property: "desktop_notifications", value: null };
    expect(deliver(update, spec({}, ["notification_settings_null"]))).toEqual([update]);
    expect(deliver(update, spec())).toEqual([{ ...update, value: true }]);
  });
});
