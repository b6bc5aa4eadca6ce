import contracts from "../fixtures/zulip-flutter-contract.json";
import type { ClassContract, FieldType } from "../../scripts/flutter-contract";

/**
 * Checks JSON the way the Zulip mobile app (zulip-flutter) parses it: every field its
 * generated fromJson reads without a null check must be there, with the type it casts to, and
 * an enum value it has no fallback for must be one it knows. A failure here is a crash or a
 * reload loop in the app. The field lists come from the app's own generated code
 * (scripts/flutter-contract.ts wrote test/fixtures/zulip-flutter-contract.json); the few
 * classes whose fromJson the app writes by hand are described below, from lib/api/model/.
 */

const CLASSES = contracts as unknown as Record<string, ClassContract>;

/** (type, op) → the app's event class (lib/api/model/events.dart, Event.fromJson). Others it ignores. */
export const FLUTTER_EVENT_CLASSES: Record<string, string> = {
  "realm_emoji add": "RealmEmojiAddEvent",
  "realm_emoji update_one": "RealmEmojiUpdateOneEvent",
  "realm_emoji update": "RealmEmojiUpdateEvent",
  alert_words: "AlertWordsEvent",
  "user_settings update": "UserSettingsUpdateEvent",
  "device add": "DeviceAddEvent",
  "device remove": "DeviceRemoveEvent",
  "device update": "DeviceUpdateEvent",
  custom_profile_fields: "CustomProfileFieldsEvent",
  "user_group add": "UserGroupAddEvent",
  "user_group update": "UserGroupUpdateEvent",
  "user_group add_members": "UserGroupAddMembersEvent",
  "user_group remove_members": "UserGroupRemoveMembersEvent",
  "user_group add_subgroups": "UserGroupAddSubgroupsEvent",
  "user_group remove_subgroups": "UserGroupRemoveSubgroupsEvent",
  "user_group remove": "UserGroupRemoveEvent",
  "realm_user add": "RealmUserAddEvent",
  "realm_user remove": "RealmUserRemoveEvent",
  "realm_user update": "RealmUserUpdateEvent",
  "saved_snippets add": "SavedSnippetsAddEvent",
  "saved_snippets update": "SavedSnippetsUpdateEvent",
  "saved_snippets remove": "SavedSnippetsRemoveEvent",
  "stream create": "ChannelCreateEvent",
  "stream delete": "ChannelDeleteEvent",
  "stream update": "ChannelUpdateEvent",
  "subscription add": "SubscriptionAddEvent",
  "subscription remove": "SubscriptionRemoveEvent",
  "subscription update": "SubscriptionUpdateEvent",
  "subscription peer_add": "SubscriptionPeerAddEvent",
  "subscription peer_remove": "SubscriptionPeerRemoveEvent",
  "channel_folder add": "ChannelFolderAddEvent",
  "channel_folder reorder": "ChannelFolderReorderEvent",
  "channel_folder update": "ChannelFolderUpdateEvent",
  user_status: "UserStatusEvent",
  user_topic: "UserTopicEvent",
  muted_users: "MutedUsersEvent",
  message: "MessageEvent",
  update_message: "UpdateMessageEvent",
  delete_message: "DeleteMessageEvent",
  "update_message_flags add": "UpdateMessageFlagsAddEvent",
  "update_message_flags remove": "UpdateMessageFlagsRemoveEvent",
  submessage: "SubmessageEvent",
  "typing start": "TypingEvent",
  "typing stop": "TypingEvent",
  presence: "PresenceEvent",
  "reaction add": "ReactionEvent",
  "reaction remove": "ReactionEvent",
  heartbeat: "HeartbeatEvent",
};

/** Types the app switches on by `type` or `type op`: an event's key in FLUTTER_EVENT_CLASSES. */
export function flutterEventKey(event: Record<string, unknown>): string | undefined {
  const withOp = `${event.type} ${event.op}`;
  if (withOp in FLUTTER_EVENT_CLASSES) return withOp;
  if (String(event.type) in FLUTTER_EVENT_CLASSES) return String(event.type);
  return undefined;
}

type Json = any;

const isObject = (value: Json) => typeof value === "object" && value !== null && !Array.isArray(value);

/** Hand-written fromJson in the app: what each reads, checked after the generated fields. */
const HAND_WRITTEN: Record<string, (value: Json, path: string, problems: string[]) => void> = {
  // Message.fromJson: "stream" or "private", then the generated class of that kind.
  Message(value, path, problems) {
    if (value.type === "stream") {
      checkClass(value, "StreamMessage", path, problems);
      checkClass(value, "StreamConversation", path, problems);
    } else if (value.type === "private") {
      checkClass(value, "DmMessage", path, problems);
      if (!Array.isArray(value.display_recipient)) problems.push(`${path}.display_recipient: not a list`);
      else value.display_recipient.forEach((user: Json, i: number) => Number.isInteger(user?.id) || problems.push(`${path}.display_recipient[${i}].id: not an int`));
    } else problems.push(`${path}.type: ${JSON.stringify(value.type)} is neither "stream" nor "private"`);
    checkType(value.reactions, { kind: "list", of: { kind: "class", name: "Reaction" } }, `${path}.reactions`, problems);
  },
  MessageEvent(value, path, problems) {
    // The app reads the flags beside the message as the message's own (_readMessageValue).
    checkClass({ ...value.message, flags: value.flags }, "Message", `${path}.message`, problems);
    checkType(value.flags, { kind: "list", of: { kind: "string" } }, `${path}.flags`, problems);
  },
  // Event.fromJson: by type and op; kinds the app does not know it keeps as UnexpectedEvent.
  Event(value, path, problems) {
    const key = flutterEventKey(value);
    if (key !== undefined) checkClass(value, FLUTTER_EVENT_CLASSES[key], `${path}(${key})`, problems);
  },
  RealmUserRemoveEvent(value, path, problems) {
    if (!Number.isInteger(value.person?.user_id)) problems.push(`${path}.person.user_id: not an int`);
  },
  // TypingEvent's "crunchy-shell validation": a channel's typing names its channel and topic.
  TypingEvent(value, path, problems) {
    if (value.message_type === "stream") {
      if (!Number.isInteger(value.stream_id)) problems.push(`${path}.stream_id: not an int`);
      if (typeof value.topic !== "string") problems.push(`${path}.topic: not a string`);
    }
  },
  // The register answer's users come from three lists merged by a readValue helper.
  InitialSnapshot(value, path, problems) {
    for (const key of ["realm_users", "realm_non_active_users", "cross_realm_bots"]) {
      checkType(value[key], { kind: "list", of: { kind: "class", name: "User" } }, `${path}.${key}`, problems);
    }
  },
  // A subscription's color is read as "#rrggbb" (Subscription._readColor).
  Subscription(value, path, problems) {
    if (typeof value.color !== "string" || !/^#[0-9a-f]{6}$/.test(value.color)) problems.push(`${path}.color: ${JSON.stringify(value.color)} is not #rrggbb`);
  },
};

export function checkType(value: Json, type: FieldType, path: string, problems: string[]) {
  switch (type.kind) {
    case "any":
      return;
    case "int":
      if (!Number.isInteger(value)) problems.push(`${path}: ${JSON.stringify(value)} is not an int`);
      return;
    case "num":
      if (typeof value !== "number") problems.push(`${path}: ${JSON.stringify(value)} is not a number`);
      return;
    case "string":
      if (typeof value !== "string") problems.push(`${path}: ${JSON.stringify(value)} is not a string`);
      return;
    case "bool":
      if (typeof value !== "boolean") problems.push(`${path}: ${JSON.stringify(value)} is not a bool`);
      return;
    case "object":
      if (!isObject(value)) problems.push(`${path}: not an object`);
      return;
    case "enum":
      if (type.values !== undefined && !type.values.includes(value)) problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(type.values)}`);
      return;
    case "class":
      checkClass(value, type.name, path, problems);
      return;
    case "list":
      if (!Array.isArray(value)) problems.push(`${path}: not a list`);
      else value.forEach((item, i) => checkType(item, type.of, `${path}[${i}]`, problems));
      return;
    case "map":
      if (!isObject(value)) problems.push(`${path}: not an object`);
      else for (const [key, item] of Object.entries(value)) checkType(item, type.of, `${path}.${key}`, problems);
      return;
  }
}

export function checkClass(value: Json, name: string, path: string, problems: string[]) {
  if (name === "TopicName") return checkType(value, { kind: "string" }, path, problems);
  if (!isObject(value)) return void problems.push(`${path}: not an object (${name})`);
  for (const [key, field] of Object.entries(CLASSES[name] ?? {})) {
    const present = value[key] !== undefined && value[key] !== null;
    if (!present) {
      if (!field.nullable) problems.push(`${path}.${key}: missing (${name})`);
      continue;
    }
    checkType(value[key], field.type, `${path}.${key}`, problems);
  }
  HAND_WRITTEN[name]?.(value, path, problems);
  if (!(name in CLASSES) && !(name in HAND_WRITTEN)) problems.push(`${path}: no contract for ${name}`);
}

/** What the app would fail on in one event; [] when it parses (or ignores it). */
export function flutterEventProblems(event: Json): string[] {
  const key = flutterEventKey(event);
  if (key === undefined) return [];
  const problems: string[] = [];
  checkClass(event, FLUTTER_EVENT_CLASSES[key], key, problems);
  return problems;
}

/** What the app would fail on in a register answer. */
export function flutterSnapshotProblems(snapshot: Json): string[] {
  const problems: string[] = [];
  checkClass(snapshot, "InitialSnapshot", "register", problems);
  return problems;
}

/** The register parameters the app sends (lib/api/route/events.dart, registerQueue). */
export const FLUTTER_REGISTER_PARAMS = {
  idle_queue_timeout: "mobile",
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    include_deactivated_groups: true,
    empty_topic_name: true,
    individual_emoji_changes: true,
  },
};
