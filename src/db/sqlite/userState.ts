// Each person's own state: alert words, bot storage, muted users, presence, status, client devices,
// push devices. SQLite's tables; their PostgreSQL twins are in ../postgres/ (same file names).
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { ReactionType } from "../../model/emoji";
import type { PushDeviceKind } from "../columnTypes";
import { users } from "./accounts";

/**
 * Words a user wants to be alerted to, as they typed them (matched without regard to case). The
 * ID keeps the order they were added in, which the API shows (PostgreSQL keeps no other).
 */
export const alertWords = sqliteTable(
  "alert_words",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    word: text("word").notNull(),
  },
  (table) => [uniqueIndex("alert_words_user_word").on(table.userId, table.word)],
);

/** A bot's own key-value store (the bot storage API python-zulip-api's bots use). */
export const botStorage = sqliteTable(
  "bot_storage",
  {
    botId: integer("bot_id")
      .notNull()
      .references(() => users.id),
    key: text("key").notNull(),
    value: text("value").notNull(),
  },
  (table) => [primaryKey({ columns: [table.botId, table.key] })],
);

/** Users a user has muted, and since when (UNIX seconds). The ID keeps the order they were muted in. */
export const mutedUsers = sqliteTable(
  "muted_users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    mutedUserId: integer("muted_user_id")
      .notNull()
      .references(() => users.id),
    dateMuted: integer("date_muted").notNull(),
  },
  (table) => [uniqueIndex("muted_users_user_muted").on(table.userId, table.mutedUserId)],
);

/**
 * The last time each user's clients reported them active or merely connected. Presence is kept
 * in memory while the server runs and written here lazily, so a restart forgets at most the
 * last few seconds and the send path never touches it.
 */
export const presences = sqliteTable("presences", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id),
  /** UNIX seconds of the last report with status "active"; 0 when never active. */
  lastActiveTime: integer("last_active_time").notNull(),
  /** UNIX seconds of the last report of any status. */
  lastConnectedTime: integer("last_connected_time").notNull(),
  /** The realm-wide presence counter when this row last changed (presence_last_update_id). */
  lastUpdateId: integer("last_update_id").notNull(),
});

/**
 * A user's status (spec 2.5): text and emoji, one row per user who ever set one. `away` is not
 * stored here: it is the negation of the user's presence_enabled setting.
 */
export const userStatuses = sqliteTable("user_statuses", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id),
  statusText: text("status_text").notNull().default(""),
  emojiName: text("emoji_name").notNull().default(""),
  emojiCode: text("emoji_code").notNull().default(""),
  reactionType: text("reaction_type").$type<ReactionType>().notNull().default("unicode_emoji"),
  timestamp: integer("timestamp").notNull(),
});

/**
 * A signed-in client install (register_client_device), with the end-to-end push registration
 * the mobile app attaches to it (mobile_push/register). Stored only: nothing is pushed yet.
 */
export const clientDevices = sqliteTable(
  "client_devices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    createTime: integer("create_time").notNull(),
    pushKeyId: integer("push_key_id"),
    pushKey: text("push_key"),
    tokenKind: text("token_kind").$type<"fcm" | "apns">(),
    tokenId: text("token_id"),
    bouncerPublicKey: text("bouncer_public_key"),
    encryptedPushRegistration: text("encrypted_push_registration"),
    pushRegistrationTime: integer("push_registration_time"),
  },
  (table) => [index("client_devices_user").on(table.userId)],
);

/** Devices registered for push notifications (spec 4.14). Stored only: nothing is pushed yet. */
export const pushDevices = sqliteTable(
  "push_devices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind").$type<PushDeviceKind>().notNull(),
    token: text("token").notNull(),
    /** The iOS app the APNs token belongs to; null for FCM. */
    appId: text("app_id"),
    lastUpdated: integer("last_updated").notNull(),
  },
  // A token names one device, which one account at a time is signed in on.
  (table) => [uniqueIndex("push_devices_kind_token").on(table.kind, table.token)],
);

/**
 * A browser's Web Push subscription (RFC 8030 endpoint, RFC 8291 keys), as its PushSubscription
 * gives them. An endpoint names one browser profile, which one account at a time uses.
 */
export const webPushSubscriptions = sqliteTable(
  "web_push_subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    endpoint: text("endpoint").notNull(),
    /** The browser's P-256 public key, base64url (65 bytes uncompressed). */
    p256dh: text("p256dh").notNull(),
    /** The 16-byte authentication secret, base64url. */
    auth: text("auth").notNull(),
    createdAt: integer("created_at").notNull(),
    lastDeliveredAt: integer("last_delivered_at"),
  },
  (table) => [uniqueIndex("web_push_subscriptions_endpoint").on(table.endpoint), index("web_push_subscriptions_user").on(table.userId)],
);

/**
 * Messages to mail to a person unless they read them first (missed-message e-mail): due when
 * their batching period is over, then mailed together per conversation.
 */
export const missedMessageEmails = sqliteTable(
  "missed_message_emails",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    messageId: integer("message_id").notNull(),
    /** The conversation: the mail groups by it. */
    recipientId: integer("recipient_id").notNull(),
    reason: text("reason").notNull(),
    dueAt: integer("due_at").notNull(),
  },
  (table) => [uniqueIndex("missed_message_emails_user_message").on(table.userId, table.messageId), index("missed_message_emails_due").on(table.dueAt)],
);
