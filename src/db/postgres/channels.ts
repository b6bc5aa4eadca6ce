/** PostgreSQL's tables of channels and who is subscribed to them (see ./tables.ts). */
import { boolean, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { userGroups, users } from "./accounts";
import { id, int } from "./columns";

const groupSetting = (name: string) =>
  int(name)
    .notNull()
    .references(() => userGroups.id);

export const channels = pgTable("channels", {
  id: id(),
  name: text("name").notNull(),
  nameKey: text("name_key").notNull().unique(),
  description: text("description").notNull().default(""),
  renderedDescription: text("rendered_description").notNull().default(""),
  dateCreated: int("date_created").notNull(),
  creatorId: int("creator_id").references(() => users.id),
  isArchived: boolean("is_archived").notNull().default(false),
  inviteOnly: boolean("invite_only").notNull().default(false),
  isWebPublic: boolean("is_web_public").notNull().default(false),
  historyPublicToSubscribers: boolean("history_public_to_subscribers").notNull().default(true),
  messageRetentionDays: int("message_retention_days"),
  firstMessageId: int("first_message_id"),
  isRecentlyActive: boolean("is_recently_active").notNull().default(true),
  weeklyTraffic: int("weekly_traffic"),
  canAddSubscribersGroup: groupSetting("can_add_subscribers_group"),
  canRemoveSubscribersGroup: groupSetting("can_remove_subscribers_group"),
  canAdministerChannelGroup: groupSetting("can_administer_channel_group"),
  canSendMessageGroup: groupSetting("can_send_message_group"),
  canSubscribeGroup: groupSetting("can_subscribe_group"),
});

export const subscriptions = pgTable(
  "subscriptions",
  {
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    channelId: int("channel_id")
      .notNull()
      .references(() => channels.id),
    active: boolean("active").notNull().default(true),
    color: text("color").notNull(),
    isMuted: boolean("is_muted").notNull().default(false),
    pinToTop: boolean("pin_to_top").notNull().default(false),
    desktopNotifications: boolean("desktop_notifications"),
    audibleNotifications: boolean("audible_notifications"),
    pushNotifications: boolean("push_notifications"),
    emailNotifications: boolean("email_notifications"),
    wildcardMentionsNotify: boolean("wildcard_mentions_notify"),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.channelId] }),
    index("subscriptions_channel_active_user").on(table.channelId, table.active, table.userId),
  ],
);

export const defaultChannels = pgTable("default_channels", {
  channelId: int("channel_id")
    .primaryKey()
    .references(() => channels.id),
});

export const subscriptionPeriods = pgTable(
  "subscription_periods",
  {
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    channelId: int("channel_id")
      .notNull()
      .references(() => channels.id),
    startsAfter: int("starts_after").notNull(),
    endsAt: int("ends_at"),
  },
  (table) => [primaryKey({ columns: [table.userId, table.channelId, table.startsAfter] }), index("subscription_periods_channel").on(table.channelId)],
);

export const userTopics = pgTable(
  "user_topics",
  {
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    channelId: int("channel_id")
      .notNull()
      .references(() => channels.id),
    topicKey: text("topic_key").notNull(),
    topic: text("topic").notNull(),
    visibilityPolicy: int("visibility_policy").notNull(),
    lastUpdated: int("last_updated").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.channelId, table.topicKey] }), index("user_topics_channel_topic").on(table.channelId, table.topicKey)],
);
