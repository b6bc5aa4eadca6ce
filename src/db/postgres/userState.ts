/** PostgreSQL's tables of per-user state and devices (see ./tables.ts). */
import { index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { PushDeviceKind } from "../columnTypes";
import { users } from "./accounts";
import { id, int, type ReactionType } from "./columns";

/** The ID keeps the order the words were added in: a heap keeps none. */
export const alertWords = pgTable(
  "alert_words",
  {
    id: id(),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    word: text("word").notNull(),
  },
  (table) => [uniqueIndex("alert_words_user_word").on(table.userId, table.word)],
);

export const botStorage = pgTable(
  "bot_storage",
  {
    botId: int("bot_id")
      .notNull()
      .references(() => users.id),
    key: text("key").notNull(),
    value: text("value").notNull(),
  },
  (table) => [primaryKey({ columns: [table.botId, table.key] })],
);

/** The ID keeps the order the users were muted in. */
export const mutedUsers = pgTable(
  "muted_users",
  {
    id: id(),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    mutedUserId: int("muted_user_id")
      .notNull()
      .references(() => users.id),
    dateMuted: int("date_muted").notNull(),
  },
  (table) => [uniqueIndex("muted_users_user_muted").on(table.userId, table.mutedUserId)],
);

/** Keyed by the user, whose ID every insert names: no identity. */
export const presences = pgTable("presences", {
  userId: int("user_id")
    .primaryKey()
    .references(() => users.id),
  lastActiveTime: int("last_active_time").notNull(),
  lastConnectedTime: int("last_connected_time").notNull(),
  lastUpdateId: int("last_update_id").notNull(),
});

/** Keyed by the user, whose ID every insert names: no identity. */
export const userStatuses = pgTable("user_statuses", {
  userId: int("user_id")
    .primaryKey()
    .references(() => users.id),
  statusText: text("status_text").notNull().default(""),
  emojiName: text("emoji_name").notNull().default(""),
  emojiCode: text("emoji_code").notNull().default(""),
  reactionType: text("reaction_type").$type<ReactionType>().notNull().default("unicode_emoji"),
  timestamp: int("timestamp").notNull(),
});

export const clientDevices = pgTable(
  "client_devices",
  {
    id: id(),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    createTime: int("create_time").notNull(),
    pushKeyId: int("push_key_id"),
    pushKey: text("push_key"),
    tokenKind: text("token_kind").$type<"fcm" | "apns">(),
    tokenId: text("token_id"),
    bouncerPublicKey: text("bouncer_public_key"),
    encryptedPushRegistration: text("encrypted_push_registration"),
    pushRegistrationTime: int("push_registration_time"),
  },
  (table) => [index("client_devices_user").on(table.userId)],
);

export const pushDevices = pgTable(
  "push_devices",
  {
    id: id(),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind").$type<PushDeviceKind>().notNull(),
    token: text("token").notNull(),
    appId: text("app_id"),
    lastUpdated: int("last_updated").notNull(),
  },
  (table) => [uniqueIndex("push_devices_kind_token").on(table.kind, table.token)],
);

export const webPushSubscriptions = pgTable(
  "web_push_subscriptions",
  {
    id: id(),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: int("created_at").notNull(),
    lastDeliveredAt: int("last_delivered_at"),
  },
  (table) => [uniqueIndex("web_push_subscriptions_endpoint").on(table.endpoint), index("web_push_subscriptions_user").on(table.userId)],
);

export const missedMessageEmails = pgTable(
  "missed_message_emails",
  {
    id: id(),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    messageId: int("message_id").notNull(),
    recipientId: int("recipient_id").notNull(),
    reason: text("reason").notNull(),
    dueAt: int("due_at").notNull(),
  },
  (table) => [uniqueIndex("missed_message_emails_user_message").on(table.userId, table.messageId), index("missed_message_emails_due").on(table.dueAt)],
);
