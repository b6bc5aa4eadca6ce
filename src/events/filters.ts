import type { Emitted } from "../db/types";
import type { UserSettings } from "../model/userSettings";
import { forClient, isGravatarUrl, type MessageFields } from "../shapes/messages";
import type { ApiUserGroup } from "../shapes/userGroups";
import type { QueueEvent } from "./kinds/queue";
import { matchesEventNarrow, type MessageLike } from "./eventNarrow";
import type { QueueSpec } from "./spec";
import type { AnyEvent } from "./types";

/**
 * What one queue receives of one published event: nothing, the event as is, or a version
 * shaped for what its client declared (spec 4.19 capability effects, event_types, narrow,
 * apply_markdown, client_gravatar). Events are shared between queues, so a transform always
 * copies and never edits the event it was given.
 */

export type DeliveredEvent = AnyEvent | QueueEvent;

/** The queue an event is being delivered to. */
export interface Delivery {
  queueId: string;
  userId: number;
  spec: QueueSpec;
  /** false when the queue gets the event only through all_public_streams. */
  recipient: boolean;
}

/**
 * Current state some transforms need, read after the commit that emitted the event. Filters
 * run synchronously, for every queue an event goes to, so these answer from what publish read
 * before delivering (events/registry.ts), as eventLookups and addLookups say it must.
 */
export interface FilterContext {
  emptyTopicDisplayName(): string;
  userSettings(userId: number): UserSettings | undefined;
  userGroup(groupId: number): ApiUserGroup | undefined;
  /**
   * The shape `key` of `source`, made once per publish and shared by every queue that takes
   * that shape. Kept only while one publish runs: a WeakMap held for as long as the events
   * live made every garbage collection walk its entries, and under load that was most of it.
   */
  sharedShape(source: object, key: string, make: () => Loose): Loose;
}

/** A fresh sharedShape store, for one publish. */
export function shapeStore(): FilterContext["sharedShape"] {
  const shapes = new Map<object, Map<string, Loose>>();
  return (source, key, make) => {
    let bySource = shapes.get(source);
    if (!bySource) shapes.set(source, (bySource = new Map()));
    let shaped = bySource.get(key);
    if (!shaped) bySource.set(key, (shaped = make()));
    return shaped;
  };
}

// Events are a typed union, but these transforms also serve kinds later features add
// (message, typing, delete_message, subscription...), so they read events structurally.
type Loose = Record<string, any>;
const deliver = (events: Loose[]) => events as DeliveredEvent[];

/** The lookups of FilterContext that delivering some events to some queues will make. */
export interface Lookups {
  emptyTopicDisplayName: boolean;
  userSettings: Set<number>;
  userGroups: Set<number>;
}

/** What one event may have its filters look up, whatever the queue: see addLookups. */
export interface EventLookups {
  type: string;
  emptyTopicDisplayName: boolean;
  userSettings: boolean;
  userGroup: number | null;
}

/**
 * What the transforms below may ask the context for when delivering this event, judged from
 * the event alone; null when nothing (most messages: only the empty topic asks). It may ask
 * for more than a queue will use, never less: a lookup not read before delivery fails it.
 */
export function eventLookups(addressed: Emitted): EventLookups | null {
  const event = addressed.event as Loose;
  const emptyTopic = namesEmptyTopic(event);
  const settings = event.type === "subscription" && resolvesNotificationNulls(event);
  const group = event.type === "user_group" && looksUpGroup(event);
  if (!emptyTopic && !settings && !group) return null;
  return { type: event.type, emptyTopicDisplayName: emptyTopic, userSettings: settings, userGroup: group ? event.group_id : null };
}

/** Adds to `wanted` what delivering an event asking for `asks` to this queue looks up. */
export function addLookups(asks: EventLookups, delivery: Pick<Delivery, "spec" | "userId">, wanted: Lookups) {
  const { spec } = delivery;
  if (spec.eventTypes !== null && !spec.eventTypes.includes(asks.type)) return;
  const { capabilities } = spec;
  if (asks.emptyTopicDisplayName && !capabilities.empty_topic_name) wanted.emptyTopicDisplayName = true;
  if (asks.userSettings && !capabilities.notification_settings_null) wanted.userSettings.add(delivery.userId);
  if (asks.userGroup !== null && !capabilities.include_deactivated_groups) wanted.userGroups.add(asks.userGroup);
}

export function eventsForQueue(addressed: Emitted, delivery: Delivery, context: FilterContext): DeliveredEvent[] {
  const { spec } = delivery;
  const event = addressed.event as Loose;
  if (spec.eventTypes !== null && !spec.eventTypes.includes(event.type)) return [];
  // Each case of shapeForClient returns a fresh array, so it may be changed in place.
  const shaped = shapeForClient(event, addressed, delivery, context);
  if (!spec.capabilities.empty_topic_name) for (let i = 0; i < shaped.length; i++) shaped[i] = withTopicDisplayNames(shaped[i], context);
  return deliver(shaped);
}

function shapeForClient(event: Loose, addressed: Emitted, delivery: Delivery, context: FilterContext): Loose[] {
  const { capabilities } = delivery.spec;
  switch (event.type) {
    case "message":
      return messageForQueue(event, addressed, delivery, context);
    case "update_display_settings":
    case "update_global_notifications":
      return capabilities.user_settings_object ? [] : [event];
    case "realm_user":
      return realmUserForQueue(event, delivery.spec);
    case "realm_linkifiers":
      return capabilities.linkifier_url_template ? [event] : [];
    case "typing":
      return event.stream_id !== undefined && !capabilities.stream_typing_notifications ? [] : [event];
    case "update_message":
      // Each queue's copy carries its own user's flags for the edited message.
      return [{ ...event, flags: addressed.options?.flagsByUser?.get(delivery.userId) ?? event.flags }];
    case "delete_message":
      return capabilities.bulk_message_deletion ? [event] : singleDeletions(event);
    case "user_group":
      return capabilities.include_deactivated_groups ? [event] : userGroupWithoutDeactivated(event, context);
    case "subscription":
    case "stream":
      return channelEventForQueue(event, delivery, context);
    case "muted_topics":
      return mutedTopicsForQueue(event, delivery.spec, context);
    case "presence":
      return [presenceForQueue(event, capabilities.simplified_presence_events, context)];
    default:
      return [event];
  }
}

function messageForQueue(event: Loose, addressed: Emitted, delivery: Delivery, context: FilterContext): Loose[] {
  const { spec } = delivery;
  const options = addressed.options ?? {};
  if (!delivery.recipient && options.addressedElsewhere?.has(delivery.userId)) return [];
  const flags: string[] = delivery.recipient ? (options.flagsByUser?.get(delivery.userId) ?? event.flags ?? []) : [];
  if (!matchesEventNarrow(spec.narrow, event.message as MessageLike, flags)) return [];
  const echo = options.localEcho;
  if (echo?.queueId === delivery.queueId && delivery.userId === event.message.sender_id) return [{ ...shapedMessageEvent(event, spec, flags, context), local_id: echo.localId }];
  // Queues of the same format whose users have the same flags get the same object, which
  // events/answer.ts then serializes once for all of them.
  const format = formatKey(spec);
  return [context.sharedShape(event, flags.length === 0 ? format : `${format} ${flags.join(",")}`, () => shapedMessageEvent(event, spec, flags, context))];
}

function shapedMessageEvent(event: Loose, spec: QueueSpec, flags: string[], context: FilterContext): Loose {
  const { gravatar_computable, ...rest } = event;
  return { ...rest, message: messageInFormat(event.message, spec, gravatar_computable !== false, context), flags };
}

const formatKey = (spec: QueueSpec) => (spec.applyMarkdown ? (spec.clientGravatar ? "html gravatar" : "html") : spec.clientGravatar ? "markdown gravatar" : "markdown");

// A message goes to many queues but in few formats: each format is shaped once and shared
// (delivered events are never edited, so sharing is safe).
function messageInFormat(message: Loose, spec: QueueSpec, gravatarComputable: boolean, context: FilterContext): Loose {
  // The empty topic's display name is withTopicDisplayNames' job, as for every event kind.
  const format = { applyMarkdown: spec.applyMarkdown, clientGravatar: spec.clientGravatar, allowEmptyTopicName: true, emptyTopicDisplayName: "" };
  return context.sharedShape(message, formatKey(spec), () => forClient(message as MessageFields, format, gravatarComputable));
}

function realmUserForQueue(event: Loose, spec: QueueSpec): Loose[] {
  // Guests restricted by can_access_all_users_group are told of inaccessible users only by a
  // placeholder, and not at all if their client copes with an incomplete user list.
  const { inaccessible_user, gravatar_computable, ...shaped } = event;
  if (inaccessible_user && spec.capabilities.user_list_incomplete) return [];
  // As userToApi does: null only where the viewer may see the address the Gravatar hash is of.
  const computable = event.op === "add" ? shaped.person.delivery_email !== null : gravatar_computable === true;
  if (spec.clientGravatar && computable && isGravatarUrl(shaped.person.avatar_url)) shaped.person = { ...shaped.person, avatar_url: null };
  return [shaped];
}

/** The legacy list, only for clients that did not ask for user_topic events by name. */
function mutedTopicsForQueue(event: Loose, spec: QueueSpec, context: FilterContext): Loose[] {
  if (spec.eventTypes?.includes("user_topic")) return [];
  if (spec.capabilities.empty_topic_name) return [event];
  const shown = (topic: string) => (topic === "" ? context.emptyTopicDisplayName() : topic);
  return [{ ...event, muted_topics: event.muted_topics.map(([name, topic, at]: [string, string, number]) => [name, shown(topic), at]) }];
}

/** The modern form (`presences` keyed by user ID) or the legacy one; each made once per publish. */
function presenceForQueue(event: Loose, simplified: boolean, context: FilterContext): Loose {
  return context.sharedShape(event, simplified ? "modern" : "legacy", () => {
    const { presences, ...legacy } = event;
    return simplified ? { type: event.type, presences } : legacy;
  });
}

/** The reference's pre-bulk form: one event per deleted message, with message_id. */
function singleDeletions(event: Loose): Loose[] {
  if (!Array.isArray(event.message_ids)) return [event];
  const { message_ids, ...rest } = event;
  return (message_ids as number[]).map((message_id) => ({ ...rest, message_id }));
}

const deactivationIn = (event: Loose) => (event.op === "update" ? event.data?.deactivated : undefined);

/** Whether userGroupWithoutDeactivated looks the group up: all but an add or a deactivation. */
const looksUpGroup = (event: Loose) => event.op !== "add" && deactivationIn(event) !== true;

/**
 * Without include_deactivated_groups a deactivated group no longer exists for the client: its
 * deactivation is a remove, its reactivation an add, and changes to it in between are dropped.
 */
function userGroupWithoutDeactivated(event: Loose, context: FilterContext): Loose[] {
  if (event.op === "add") return [event];
  const deactivated = deactivationIn(event);
  if (deactivated === true) return [{ type: "user_group", op: "remove", group_id: event.group_id }];
  if (deactivated === false) {
    const group = context.userGroup(event.group_id);
    return group ? [{ type: "user_group", op: "add", group }] : [];
  }
  return context.userGroup(event.group_id)?.deactivated ? [] : [event];
}

const NOTIFICATION_DEFAULTS: Record<string, keyof UserSettings> = {
  desktop_notifications: "enable_stream_desktop_notifications",
  email_notifications: "enable_stream_email_notifications",
  push_notifications: "enable_stream_push_notifications",
  audible_notifications: "enable_stream_audible_notifications",
  wildcard_mentions_notify: "wildcard_mentions_notify",
};

/**
 * Per-channel notification settings as clients without notification_settings_null expect
 * them: a null (inherit) becomes the user's own setting. Also used for register snapshots.
 */
export function withoutNotificationNulls<T extends Loose>(subscription: T, settings: UserSettings): T {
  const resolved: Loose = { ...subscription };
  for (const [field, setting] of Object.entries(NOTIFICATION_DEFAULTS)) {
    if (field in resolved && resolved[field] === null) resolved[field] = settings[setting];
  }
  return resolved as T;
}

/** Whether a subscription event carries notification settings that may be null (inherit). */
const resolvesNotificationNulls = (event: Loose) =>
  Array.isArray(event.subscriptions) || (event.op === "update" && event.value === null && event.property in NOTIFICATION_DEFAULTS);

/** Channel and subscription events: archived channels only for archived_channels clients; notification nulls resolved. */
function channelEventForQueue(event: Loose, delivery: Delivery, context: FilterContext): Loose[] {
  const { capabilities } = delivery.spec;
  // (Un)archiving: clients that know archived channels get an is_archived update; the others
  // see the channel deleted, or created again (the events marked for_archiving/for_unarchiving).
  if (event.type === "stream" && event.op === "update" && event.property === "is_archived" && !capabilities.archived_channels) return [];
  let shaped = event;
  if (event.for_archiving || event.for_unarchiving) {
    if (capabilities.archived_channels) return [];
    const { for_archiving: _archiving, for_unarchiving: _unarchiving, ...plain } = event;
    shaped = plain;
  }
  for (const listField of ["streams", "subscriptions"]) {
    if (!Array.isArray(shaped[listField])) continue;
    let list = shaped[listField] as Loose[];
    if (!capabilities.archived_channels) list = list.filter((channel) => channel.is_archived !== true);
    if (list.length === 0) return [];
    shaped = { ...shaped, [listField]: list };
  }
  if (shaped.type !== "subscription" || capabilities.notification_settings_null || !resolvesNotificationNulls(shaped)) return [shaped];
  const settings = context.userSettings(delivery.userId);
  if (!settings) return [shaped];
  if (Array.isArray(shaped.subscriptions)) {
    shaped = { ...shaped, subscriptions: shaped.subscriptions.map((sub: Loose) => withoutNotificationNulls(sub, settings)) };
  }
  if (shaped.op === "update" && shaped.value === null && shaped.property in NOTIFICATION_DEFAULTS) {
    shaped = { ...shaped, value: settings[NOTIFICATION_DEFAULTS[shaped.property]] };
  }
  return [shaped];
}

/** Where each event type carries topic names: a top-level field, or [outer, inner]. */
const TOPIC_FIELDS: Record<string, Array<[string] | [string, string]>> = {
  message: [["message", "subject"]],
  typing: [["topic"]],
  update_message: [["subject"], ["orig_subject"], ["topic"]],
  delete_message: [["topic"]],
  user_topic: [["topic_name"]],
};

/** Whether an event names the empty topic where withTopicDisplayNames or mutedTopicsForQueue shows its display name. */
function namesEmptyTopic(event: Loose): boolean {
  if (event.type === "muted_topics") return event.muted_topics.some(([, topic]: [string, string]) => topic === "");
  if (event.type === "update_message_flags") return Object.values((event.message_details ?? {}) as Record<string, Loose>).some((detail) => detail.type === "stream" && detail.topic === "");
  const fields = TOPIC_FIELDS[event.type];
  if (!fields || (event.type === "message" && event.message?.type !== "stream")) return false;
  return fields.some(([outer, inner]) => (inner ? event[outer]?.[inner] : event[outer]) === "");
}

/** Clients without empty_topic_name see the realm's display name where a topic is "". */
function withTopicDisplayNames(event: Loose, context: FilterContext): Loose {
  if (event.type === "update_message_flags" && event.message_details) return withUnreadDetailTopicNames(event, context);
  const fields = TOPIC_FIELDS[event.type];
  // A direct message's subject is "" because it has no topic, not because its topic is empty.
  if (!fields || (event.type === "message" && event.message?.type !== "stream")) return event;
  let shaped = event;
  for (const [outer, inner] of fields) {
    const holder = inner ? shaped[outer] : shaped;
    const key = inner ?? outer;
    if (holder?.[key] !== "") continue;
    const replaced = { ...holder, [key]: context.emptyTopicDisplayName() };
    shaped = inner ? { ...shaped, [outer]: replaced } : replaced;
  }
  return shaped;
}

/** update_message_flags carries topics per message, in message_details. */
function withUnreadDetailTopicNames(event: Loose, context: FilterContext): Loose {
  const details: Record<string, Loose> = {};
  for (const [id, detail] of Object.entries(event.message_details as Record<string, Loose>)) {
    details[id] = detail.type === "stream" && detail.topic === "" ? { ...detail, topic: context.emptyTopicDisplayName() } : detail;
  }
  return { ...event, message_details: details };
}
