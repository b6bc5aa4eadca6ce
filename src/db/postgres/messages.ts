/** PostgreSQL's tables of messages and what hangs off them (see ./tables.ts). */
import { boolean, index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { DraftType } from "../columnTypes";
import type { EditHistoryEntry } from "../columnTypes";
import type { ScheduledMessageType } from "../columnTypes";
import { users } from "./accounts";
import { channels } from "./channels";
import { id, int, type ReactionType, jsonb } from "./columns";

export const recipients = pgTable("recipients", {
  id: id(),
  type: int("type").notNull(),
  channelId: int("channel_id")
    .unique()
    .references(() => channels.id),
  dmKey: text("dm_key").unique(),
});

export const recipientUsers = pgTable(
  "recipient_users",
  {
    recipientId: int("recipient_id")
      .notNull()
      .references(() => recipients.id),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
  },
  (table) => [primaryKey({ columns: [table.recipientId, table.userId] }), index("recipient_users_user").on(table.userId)],
);

export const messages = pgTable(
  "messages",
  {
    id: id(),
    recipientId: int("recipient_id")
      .notNull()
      .references(() => recipients.id),
    channelId: int("channel_id").references(() => channels.id),
    topic: text("topic").notNull().default(""),
    topicKey: text("topic_key").notNull().default(""),
    senderId: int("sender_id")
      .notNull()
      .references(() => users.id),
    content: text("content").notNull(),
    renderedContent: text("rendered_content").notNull(),
    client: text("client").notNull().default("API"),
    dateSent: int("date_sent").notNull(),
    isMeMessage: boolean("is_me_message").notNull().default(false),
    hasLink: boolean("has_link").notNull().default(false),
    hasImage: boolean("has_image").notNull().default(false),
    hasAttachment: boolean("has_attachment").notNull().default(false),
    lastEditTime: int("last_edit_time"),
    lastMovedTime: int("last_moved_time"),
    editHistory: jsonb("edit_history").$type<EditHistoryEntry[]>(),
  },
  (table) => [
    index("messages_channel_topic").on(table.channelId, table.topicKey, table.id),
    index("messages_recipient").on(table.recipientId, table.id),
    index("messages_sender").on(table.senderId, table.id),
  ],
);

export const messageFlags = pgTable(
  "message_flags",
  {
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    messageId: int("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    recipientId: int("recipient_id").notNull(),
    flags: int("flags").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.messageId] }),
    index("message_flags_user_recipient").on(table.userId, table.recipientId, table.messageId),
    index("message_flags_message").on(table.messageId),
  ],
);

export const readMarks = pgTable(
  "read_marks",
  {
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    recipientId: int("recipient_id")
      .notNull()
      .references(() => recipients.id),
    readUpTo: int("read_up_to").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.recipientId] })],
);

export const reactions = pgTable(
  "reactions",
  {
    id: id(),
    messageId: int("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    emojiName: text("emoji_name").notNull(),
    emojiCode: text("emoji_code").notNull(),
    reactionType: text("reaction_type").$type<ReactionType>().notNull(),
  },
  (table) => [
    uniqueIndex("reactions_identity").on(table.messageId, table.userId, table.emojiCode, table.reactionType),
    index("reactions_message_code").on(table.messageId, table.emojiCode, table.reactionType),
  ],
);

export const attachments = pgTable(
  "attachments",
  {
    id: id(),
    ownerId: int("owner_id")
      .notNull()
      .references(() => users.id),
    pathId: text("path_id").notNull().unique(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: int("size").notNull(),
    sha256: text("sha256").notNull(),
    createTime: int("create_time").notNull(),
  },
  (table) => [index("attachments_owner").on(table.ownerId), index("attachments_sha256").on(table.sha256)],
);

export const attachmentMessages = pgTable(
  "attachment_messages",
  {
    attachmentId: int("attachment_id")
      .notNull()
      .references(() => attachments.id),
    messageId: int("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.attachmentId, table.messageId] }), index("attachment_messages_message").on(table.messageId)],
);

export const drafts = pgTable(
  "drafts",
  {
    id: id(),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    type: text("type").$type<DraftType>().notNull(),
    to: jsonb("to").$type<number[]>().notNull(),
    topic: text("topic").notNull(),
    content: text("content").notNull(),
    timestamp: int("timestamp").notNull(),
  },
  (table) => [index("drafts_user").on(table.userId, table.timestamp)],
);

export const scheduledMessages = pgTable(
  "scheduled_messages",
  {
    id: id(),
    senderId: int("sender_id")
      .notNull()
      .references(() => users.id),
    type: text("type").$type<ScheduledMessageType>().notNull(),
    to: jsonb("to").$type<number[]>().notNull(),
    topic: text("topic").notNull(),
    content: text("content").notNull(),
    renderedContent: text("rendered_content").notNull(),
    client: text("client").notNull(),
    scheduledTimestamp: int("scheduled_timestamp").notNull(),
    readBySender: boolean("read_by_sender").notNull(),
    delivered: boolean("delivered").notNull().default(false),
    deliveredMessageId: int("delivered_message_id"),
    failed: boolean("failed").notNull().default(false),
    failureMessage: text("failure_message"),
  },
  (table) => [index("scheduled_messages_due").on(table.delivered, table.failed, table.scheduledTimestamp), index("scheduled_messages_sender").on(table.senderId, table.delivered)],
);

export const savedSnippets = pgTable(
  "saved_snippets",
  {
    id: id(),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    content: text("content").notNull(),
    dateCreated: int("date_created").notNull(),
  },
  (table) => [index("saved_snippets_user").on(table.userId)],
);
