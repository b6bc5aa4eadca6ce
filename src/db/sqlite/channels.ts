// Channels and who is in them: subscriptions, default channels, subscription periods, per-user
// topic settings. SQLite's tables; their PostgreSQL twins are in ../postgres/ (same file names).
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { userGroups, users } from "./accounts";

/** A channel permission: the user group (often a system group) whose members have it. */
const groupSetting = (name: string) =>
  integer(name)
    .notNull()
    .references(() => userGroups.id);

/** Channels (the API's "streams"). Archived channels stay, with their subscriptions. */
export const channels = sqliteTable("channels", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /** Lower-cased name: names are unique regardless of case, as clients look them up that way. */
  nameKey: text("name_key").notNull().unique(),
  description: text("description").notNull().default(""),
  renderedDescription: text("rendered_description").notNull().default(""),
  dateCreated: integer("date_created").notNull(),
  creatorId: integer("creator_id").references(() => users.id),
  isArchived: integer("is_archived", { mode: "boolean" }).notNull().default(false),
  inviteOnly: integer("invite_only", { mode: "boolean" }).notNull().default(false),
  isWebPublic: integer("is_web_public", { mode: "boolean" }).notNull().default(false),
  historyPublicToSubscribers: integer("history_public_to_subscribers", { mode: "boolean" }).notNull().default(true),
  /** null inherits the organization's setting; -1 keeps messages forever. */
  messageRetentionDays: integer("message_retention_days"),
  /** Kept up to date by the message store; null while the channel has no messages. */
  firstMessageId: integer("first_message_id"),
  /** New channels count as active so they are not demoted before anyone could post. */
  isRecentlyActive: integer("is_recently_active", { mode: "boolean" }).notNull().default(true),
  /** Average messages per week, filled by whoever measures traffic; null while unknown. */
  weeklyTraffic: integer("weekly_traffic"),
  canAddSubscribersGroup: groupSetting("can_add_subscribers_group"),
  canRemoveSubscribersGroup: groupSetting("can_remove_subscribers_group"),
  canAdministerChannelGroup: groupSetting("can_administer_channel_group"),
  canSendMessageGroup: groupSetting("can_send_message_group"),
  canSubscribeGroup: groupSetting("can_subscribe_group"),
});

/**
 * A user's subscription to a channel. Leaving keeps the row with active = false, so the
 * user's color and settings come back if they rejoin and "unsubscribed" lists what they left.
 */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    color: text("color").notNull(),
    isMuted: integer("is_muted", { mode: "boolean" }).notNull().default(false),
    pinToTop: integer("pin_to_top", { mode: "boolean" }).notNull().default(false),
    // null: inherit the user's own setting for channel messages.
    desktopNotifications: integer("desktop_notifications", { mode: "boolean" }),
    audibleNotifications: integer("audible_notifications", { mode: "boolean" }),
    pushNotifications: integer("push_notifications", { mode: "boolean" }),
    emailNotifications: integer("email_notifications", { mode: "boolean" }),
    wildcardMentionsNotify: integer("wildcard_mentions_notify", { mode: "boolean" }),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.channelId] }),
    // Covers "who is in these channels", the busiest question, without touching the table.
    index("subscriptions_channel_active_user").on(table.channelId, table.active, table.userId),
  ],
);

/** Channels new users are subscribed to when they join. */
export const defaultChannels = sqliteTable("default_channels", {
  channelId: integer("channel_id")
    .primaryKey()
    .references(() => channels.id),
});

/**
 * Per-user message state over the sparse model of db/messages.ts (read marks plus exception
 * rows): who received what, whether it is read, and the writes that keep both small.
 *
 * Who received a channel message is recorded as subscription periods: one row per stretch of
 * time a user was subscribed to a channel, as the range of message IDs sent meanwhile,
 * (startsAfter, endsAt]. In a channel whose history is not public to subscribers a user sees
 * only messages in their periods (or sent by them), as in the reference, where only received
 * messages have a per-user row. Periods are kept for every channel, so a channel made private
 * later still shows each subscriber what they received; other messages are "historical".
 *
 * Unread invariant (the reference's): only messages in subscribed channels and in the user's
 * direct-message conversations can be unread. Subscribing puts the read mark at the newest
 * message (history is not unread); unsubscribing marks the channel read.
 */
export const subscriptionPeriods = sqliteTable(
  "subscription_periods",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id),
    /** The newest message ID when the period began: later messages were received. */
    startsAfter: integer("starts_after").notNull(),
    /** The newest message ID when it ended; null while subscribed. */
    endsAt: integer("ends_at"),
  },
  (table) => [primaryKey({ columns: [table.userId, table.channelId, table.startsAfter] }), index("subscription_periods_channel").on(table.channelId)],
);

/**
 * Per-user, per-topic settings (muted, unmuted, followed). A row exists only while its policy
 * is not INHERIT. Topics match case-insensitively, so the key is the lower-cased topic; the
 * topic as last written is kept for display.
 */
export const userTopics = sqliteTable(
  "user_topics",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id),
    topicKey: text("topic_key").notNull(),
    topic: text("topic").notNull(),
    visibilityPolicy: integer("visibility_policy").notNull(),
    lastUpdated: integer("last_updated").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.channelId, table.topicKey] }), index("user_topics_channel_topic").on(table.channelId, table.topicKey)],
);
