import { and, desc, eq, getTableColumns, inArray, lt, min, sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { channels } from "./channels";
import { indexInsertedMessages } from "./searchIndex";
import type { Reader, SendTx, Tx } from "./types";
import { users } from "./users";

/**
 * Message storage, shaped for the send path: a send writes one message row, the sender's flag
 * row and one row per mentioned user, never one row per recipient. Who received a message
 * follows from its recipient (a channel's subscribers, a conversation's members); whether they
 * read it follows from their read mark for that recipient plus sparse exception rows.
 */

export const RecipientType = { CHANNEL: 1, DIRECT: 2 } as const;

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

export type Recipient = typeof recipients.$inferSelect;

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

export type Message = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;

/** A message without its edit history, which grows with every edit and can run to megabytes. */
export type MessageRow = Omit<Message, "editHistory">;
const { editHistory: _editHistory, ...rowColumns } = getTableColumns(messages);
/** The selection of a MessageRow. */
export const MESSAGE_ROW = rowColumns;

/**
 * The message's edit_history with `entry` put first (the newest first, spec 2.3), written by
 * SQLite as text: reading a long history into objects and writing it back took longer than
 * the rest of an edit.
 */
const withEditEntry = (entry: EditHistoryEntry) => {
  const text = JSON.stringify(entry);
  return sql`CASE WHEN ${messages.editHistory} IS NULL OR ${messages.editHistory} = '[]' THEN json_array(json(${text})) ELSE '[' || ${text} || ',' || substr(${messages.editHistory}, 2) END`;
};

export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_stream?: number;
  stream?: number;
  prev_topic?: string;
  topic?: string;
}

/**
 * Per-user message flags, stored only where they differ from what the read mark implies.
 * READ / UNREAD override the mark for one message; the rest are ordinary flags.
 */
export const Flag = {
  READ: 1,
  UNREAD: 2,
  STARRED: 4,
  COLLAPSED: 8,
  MENTIONED: 16,
  STREAM_WILDCARD_MENTIONED: 32,
  TOPIC_WILDCARD_MENTIONED: 64,
  GROUP_MENTIONED: 128,
  HAS_ALERT_WORD: 256,
} as const;

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

/** MessageRows with these IDs (missing ones left out), in ID order. */
export async function messageRowsByIds(db: Reader, ids: number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(MESSAGE_ROW)
    .from(messages)
    .where(sql`${messages.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
    .orderBy(messages.id)
    .all();
}

export const dmKeyOf = (userIds: Iterable<number>) => [...new Set(userIds)].sort((a, b) => a - b).join(",");

export async function findChannelRecipient(db: Reader, channelId: number): Promise<Recipient | undefined> {
  return db.select().from(recipients).where(eq(recipients.channelId, channelId)).get();
}

export async function findDirectRecipient(db: Reader, userIds: Iterable<number>): Promise<Recipient | undefined> {
  return db
    .select()
    .from(recipients)
    .where(and(eq(recipients.type, RecipientType.DIRECT), eq(recipients.dmKey, dmKeyOf(userIds))))
    .get();
}

/** The recipient of a channel, created on first use. */
export async function channelRecipient(tx: SendTx, channelId: number): Promise<Recipient> {
  return (
    (await findChannelRecipient(tx, channelId)) ??
    tx.insert(recipients).values({ type: RecipientType.CHANNEL, channelId }).returning().get()
  );
}

/** The recipient of a set of DM participants (sender included), created on first use. */
export async function directRecipient(tx: SendTx, userIds: Iterable<number>): Promise<Recipient> {
  const members = [...new Set(userIds)].sort((a, b) => a - b);
  const existing = await findDirectRecipient(tx, members);
  if (existing) return existing;
  const created = tx.insert(recipients).values({ type: RecipientType.DIRECT, dmKey: dmKeyOf(members) }).returning().get();
  tx.insert(recipientUsers)
    .values(members.map((userId) => ({ recipientId: created.id, userId })))
    .run();
  return created;
}

/** Deletes messages for good; their flags, reactions and links to uploads go with them (ON DELETE CASCADE). */
export async function deleteMessageRows(tx: Tx, ids: number[]) {
  tx.delete(messages).where(inArray(messages.id, ids)).run();
}

/** Up to `limit` messages of a channel's topic with IDs below `belowId`, newest first. */
export async function topicMessagesBelow(db: Reader, channelId: number, topicKey: string, belowId: number, limit: number): Promise<MessageRow[]> {
  return db
    .select(MESSAGE_ROW)
    .from(messages)
    .where(and(eq(messages.channelId, channelId), eq(messages.topicKey, topicKey), lt(messages.id, belowId)))
    .orderBy(desc(messages.id))
    .limit(limit)
    .all();
}

/** The ID of a channel's oldest message; null when it has none. */
export async function firstMessageIdIn(db: Reader, channelId: number): Promise<number | null> {
  return db.select({ id: min(messages.id) }).from(messages).where(eq(messages.channelId, channelId)).get()?.id ?? null;
}

export type MessageFlagRow = typeof messageFlags.$inferSelect;

/** The flag rows of one message: one per user who has any stored. */
export async function flagRowsOfMessage(db: Reader, messageId: number): Promise<MessageFlagRow[]> {
  return db.select().from(messageFlags).where(eq(messageFlags.messageId, messageId)).all();
}

/** An edit or a move: the message gets `changes`, and `entry` goes first in its edit history. */
export async function rewriteMessage(tx: Tx, messageId: number, changes: Partial<NewMessage>, entry: EditHistoryEntry) {
  // The update trigger re-indexes the message; it must be in the index first, even if this
  // transaction created it.
  indexInsertedMessages(tx);
  tx.update(messages)
    .set({ ...changes, editHistory: withEditEntry(entry) })
    .where(eq(messages.id, messageId))
    .run();
}

// ---- Queries of the actions ----

/** Whether a channel's topic (by its lower-cased key) has any message. */
export async function topicHasMessages(db: Reader, channelId: number, topicKey: string): Promise<boolean> {
  return db.all(sql`SELECT 1 FROM messages WHERE channel_id = ${channelId} AND topic_key = ${topicKey} LIMIT 1`).length > 0;
}

/** Messages with these IDs (missing ones left out), edit history included, in no particular order. */
export async function messagesByIds(db: Reader, ids: number[]): Promise<Message[]> {
  return db.select().from(messages).where(inArray(messages.id, ids)).all();
}
