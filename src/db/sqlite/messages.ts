// Messages and what hangs off them: recipients, flags and read marks, reactions, files, drafts,
// scheduled messages, saved snippets. SQLite's tables; their PostgreSQL twins are in ../postgres/
// (same file names).
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { ReactionType } from "../../model/emoji";
import type { DraftType, EditHistoryEntry, ScheduledMessageType } from "../columnTypes";
import { users } from "./accounts";
import { channels } from "./channels";

/** Where a message goes: one row per channel, one per set of direct-message participants. */
export const recipients = sqliteTable("recipients", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  type: integer("type").notNull(),
  channelId: integer("channel_id")
    .unique()
    .references(() => channels.id),
  /** Sorted participant IDs joined by commas, so a set of users always maps to one recipient_id. */
  dmKey: text("dm_key").unique(),
});

/** Members of a direct-message conversation (the sender included). */
export const recipientUsers = sqliteTable(
  "recipient_users",
  {
    recipientId: integer("recipient_id")
      .notNull()
      .references(() => recipients.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
  },
  (table) => [primaryKey({ columns: [table.recipientId, table.userId] }), index("recipient_users_user").on(table.userId)],
);

export const messages = sqliteTable(
  "messages",
  {
    // AUTOINCREMENT: a deleted message's ID is never reused, since clients cache by ID.
    id: integer("id").primaryKey({ autoIncrement: true }),
    recipientId: integer("recipient_id")
      .notNull()
      .references(() => recipients.id),
    /** Copied from the recipient so channel and topic narrows need no join; null for DMs. */
    channelId: integer("channel_id").references(() => channels.id),
    /** "" for direct messages and for the empty topic. */
    topic: text("topic").notNull().default(""),
    /** Lower-cased topic: topics match case-insensitively. */
    topicKey: text("topic_key").notNull().default(""),
    senderId: integer("sender_id")
      .notNull()
      .references(() => users.id),
    content: text("content").notNull(),
    renderedContent: text("rendered_content").notNull(),
    client: text("client").notNull().default("API"),
    dateSent: integer("date_sent").notNull(),
    isMeMessage: integer("is_me_message", { mode: "boolean" }).notNull().default(false),
    hasLink: integer("has_link", { mode: "boolean" }).notNull().default(false),
    hasImage: integer("has_image", { mode: "boolean" }).notNull().default(false),
    hasAttachment: integer("has_attachment", { mode: "boolean" }).notNull().default(false),
    lastEditTime: integer("last_edit_time"),
    lastMovedTime: integer("last_moved_time"),
    /** Newest first, as spec 2.3 describes edit_history; null when never edited or moved. */
    editHistory: text("edit_history", { mode: "json" }).$type<EditHistoryEntry[]>(),
  },
  (table) => [
    index("messages_channel_topic").on(table.channelId, table.topicKey, table.id),
    index("messages_recipient").on(table.recipientId, table.id),
    index("messages_sender").on(table.senderId, table.id),
  ],
);

export const messageFlags = sqliteTable(
  "message_flags",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    /** Copied from the message so one conversation's exceptions are one index range. */
    recipientId: integer("recipient_id").notNull(),
    flags: integer("flags").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.messageId] }),
    index("message_flags_user_recipient").on(table.userId, table.recipientId, table.messageId),
    index("message_flags_message").on(table.messageId),
  ],
);

/**
 * A user's read position in one conversation: messages with IDs up to readUpTo are read
 * (unless flagged UNREAD), later ones unread (unless flagged READ). Subscribing sets it to the
 * channel's newest message, so history from before one joined is never unread.
 */
export const readMarks = sqliteTable(
  "read_marks",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    recipientId: integer("recipient_id")
      .notNull()
      .references(() => recipients.id),
    readUpTo: integer("read_up_to").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.recipientId] })],
);

/** One user's emoji reaction to one message; deleting the message takes its reactions along. */
export const reactions = sqliteTable(
  "reactions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    emojiName: text("emoji_name").notNull(),
    emojiCode: text("emoji_code").notNull(),
    reactionType: text("reaction_type").$type<ReactionType>().notNull(),
  },
  (table) => [
    // The name is not part of identity: two names for one code are one reaction (a "vote").
    uniqueIndex("reactions_identity").on(table.messageId, table.userId, table.emojiCode, table.reactionType),
    index("reactions_message_code").on(table.messageId, table.emojiCode, table.reactionType),
  ],
);

/**
 * Uploaded files. The bytes live in the data dir under their SHA-256 (content-addressed, so the
 * same file uploaded twice is stored once); each upload has its own row and URL path.
 */
export const attachments = sqliteTable(
  "attachments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id),
    /** The part of the URL after /user_uploads/: "{realm id}/{random}/{file name}". */
    pathId: text("path_id").notNull().unique(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    createTime: integer("create_time").notNull(),
  },
  (table) => [index("attachments_owner").on(table.ownerId), index("attachments_sha256").on(table.sha256)],
);

/** Which messages link an upload: who may read one of them may download it. */
export const attachmentMessages = sqliteTable(
  "attachment_messages",
  {
    attachmentId: integer("attachment_id")
      .notNull()
      .references(() => attachments.id),
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.attachmentId, table.messageId] }), index("attachment_messages_message").on(table.messageId)],
);

/** Message drafts a user keeps on the server so all their clients share them (reference: /drafts). */
export const drafts = sqliteTable(
  "drafts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** "stream", "private", or "" for a draft with no recipient yet. */
    type: text("type").$type<DraftType>().notNull(),
    /** The channel ID (stream) or the user IDs (private); empty when unaddressed. */
    to: text("to", { mode: "json" }).$type<number[]>().notNull(),
    topic: text("topic").notNull(),
    content: text("content").notNull(),
    /** Last edit, UNIX seconds. */
    timestamp: integer("timestamp").notNull(),
  },
  (table) => [index("drafts_user").on(table.userId, table.timestamp)],
);

/**
 * Messages a user asked to be sent later (spec 2.6, 4.2). A row stays after delivery, marked
 * `delivered` with the ID the message got, so the delivery job can tell "sent" from "due" in
 * the very transaction that sends it: that is what makes delivery exactly-once across crashes.
 */
export const scheduledMessages = sqliteTable(
  "scheduled_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    senderId: integer("sender_id")
      .notNull()
      .references(() => users.id),
    /** The reference's names: "stream" or "private". */
    type: text("type").$type<ScheduledMessageType>().notNull(),
    /** The channel's ID (stream), or everyone in the conversation, sender included, sorted (private). */
    to: text("to", { mode: "json" }).$type<number[]>().notNull(),
    /** "" for direct messages. */
    topic: text("topic").notNull(),
    content: text("content").notNull(),
    /** As rendered when scheduled or last edited; delivery renders again, as a send does. */
    renderedContent: text("rendered_content").notNull(),
    /** The client that scheduled it; the delivered message carries it. */
    client: text("client").notNull(),
    /** UNIX seconds. */
    scheduledTimestamp: integer("scheduled_timestamp").notNull(),
    readBySender: integer("read_by_sender", { mode: "boolean" }).notNull(),
    delivered: integer("delivered", { mode: "boolean" }).notNull().default(false),
    deliveredMessageId: integer("delivered_message_id"),
    /** Delivery was tried and refused; the row waits for an edit with a new time. */
    failed: integer("failed", { mode: "boolean" }).notNull().default(false),
    failureMessage: text("failure_message"),
  },
  (table) => [index("scheduled_messages_due").on(table.delivered, table.failed, table.scheduledTimestamp), index("scheduled_messages_sender").on(table.senderId, table.delivered)],
);

/** A user's saved snippets (spec 2.7): private text they insert into messages. */
export const savedSnippets = sqliteTable(
  "saved_snippets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    content: text("content").notNull(),
    dateCreated: integer("date_created").notNull(),
  },
  (table) => [index("saved_snippets_user").on(table.userId)],
);
