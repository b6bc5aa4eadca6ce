import { and, desc, eq, getTableColumns, inArray, lt, min, sql } from "drizzle-orm";
import { indexInsertedMessages } from "./searchIndex";
import type { Reader, SendTx, Tx } from "./types";
import type { EditHistoryEntry } from "./columnTypes";
import { messageFlags, messages, recipientUsers, recipients } from "./tables";
import { dialect } from "./dialect";
import { sqlRows } from "./rawSql";
import { idList } from "./sqlLists";
export type { EditHistoryEntry } from "./columnTypes";

/**
 * Message storage, shaped for the send path: a send writes one message row, the sender's flag
 * row and one row per mentioned user, never one row per recipient. Who received a message
 * follows from its recipient (a channel's subscribers, a conversation's members); whether they
 * read it follows from their read mark for that recipient plus sparse exception rows.
 */

export const RecipientType = { CHANNEL: 1, DIRECT: 2 } as const;

export type Recipient = typeof recipients.$inferSelect;

export type Message = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;

/** A message without its edit history, which grows with every edit and can run to megabytes. */
export type MessageRow = Omit<Message, "editHistory">;
/** The selection of a MessageRow (made per query: the table is the dialect's, db/tables.ts). */
function messageRow() {
  const { editHistory: _editHistory, ...rowColumns } = getTableColumns(messages);
  return rowColumns;
}

/**
 * The message's edit_history with `entry` put first (the newest first, spec 2.3), written by
 * the database: reading a long history into objects and writing it back took longer than the
 * rest of an edit. SQLite splices the text; PostgreSQL's column is jsonb, whose || joins arrays
 * (the entry goes as text, cast: Bun's client would encode a jsonb parameter as JSON again).
 */
const withEditEntry = (entry: EditHistoryEntry) => {
  const text = JSON.stringify(entry);
  if (dialect() === "postgres") return sql`jsonb_build_array(${text}::text::jsonb) || coalesce(${messages.editHistory}, '[]'::jsonb)`;
  return sql`CASE WHEN ${messages.editHistory} IS NULL OR ${messages.editHistory} = '[]' THEN json_array(json(${text})) ELSE '[' || ${text} || ',' || substr(${messages.editHistory}, 2) END`;
};

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
  /** A Web Push notification of it is shown on the person's devices, to withdraw once read (the reference's active_mobile_push_notification). */
  PUSHED: 512,
} as const;

/** MessageRows with these IDs (missing ones left out), in ID order. */
export async function messageRowsByIds(db: Reader, ids: number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return await db
    .select(messageRow())
    .from(messages)
    .where(sql`${messages.id} IN ${idList(ids)}`)
    .orderBy(messages.id);
}

export const dmKeyOf = (userIds: Iterable<number>) => [...new Set(userIds)].sort((a, b) => a - b).join(",");

export async function findChannelRecipient(db: Reader, channelId: number): Promise<Recipient | undefined> {
  return (await db.select().from(recipients).where(eq(recipients.channelId, channelId)))[0];
}

export async function findDirectRecipient(db: Reader, userIds: Iterable<number>): Promise<Recipient | undefined> {
  return (await db
    .select()
    .from(recipients)
    .where(and(eq(recipients.type, RecipientType.DIRECT), eq(recipients.dmKey, dmKeyOf(userIds)))))[0];
}

/** The recipient of a channel, created on first use. */
export async function channelRecipient(tx: SendTx, channelId: number): Promise<Recipient> {
  return (
    (await findChannelRecipient(tx, channelId)) ??
    (await tx.insert(recipients).values({ type: RecipientType.CHANNEL, channelId }).returning())[0]
  );
}

/** The recipient of a set of DM participants (sender included), created on first use. */
export async function directRecipient(tx: SendTx, userIds: Iterable<number>): Promise<Recipient> {
  const members = [...new Set(userIds)].sort((a, b) => a - b);
  const existing = await findDirectRecipient(tx, members);
  if (existing) return existing;
  const created = (await tx.insert(recipients).values({ type: RecipientType.DIRECT, dmKey: dmKeyOf(members) }).returning())[0];
  await tx.insert(recipientUsers)
    .values(members.map((userId) => ({ recipientId: created.id, userId })));
  return created;
}

/** Deletes messages for good; their flags, reactions and links to uploads go with them (ON DELETE CASCADE). */
export async function deleteMessageRows(tx: Tx, ids: number[]) {
  await tx.delete(messages).where(inArray(messages.id, ids));
}

/** Up to `limit` messages of a channel's topic with IDs below `belowId`, newest first. */
export async function topicMessagesBelow(db: Reader, channelId: number, topicKey: string, belowId: number, limit: number): Promise<MessageRow[]> {
  return await db
    .select(messageRow())
    .from(messages)
    .where(and(eq(messages.channelId, channelId), eq(messages.topicKey, topicKey), lt(messages.id, belowId)))
    .orderBy(desc(messages.id))
    .limit(limit);
}

/** The ID of a channel's oldest message; null when it has none. */
export async function firstMessageIdIn(db: Reader, channelId: number): Promise<number | null> {
  return (await db.select({ id: min(messages.id) }).from(messages).where(eq(messages.channelId, channelId)))[0]?.id ?? null;
}

export type MessageFlagRow = typeof messageFlags.$inferSelect;

/** The flag rows of one message: one per user who has any stored. */
export async function flagRowsOfMessage(db: Reader, messageId: number): Promise<MessageFlagRow[]> {
  return await db.select().from(messageFlags).where(eq(messageFlags.messageId, messageId));
}

/** An edit or a move: the message gets `changes`, and `entry` goes first in its edit history. */
export async function rewriteMessage(tx: Tx, messageId: number, changes: Partial<NewMessage>, entry: EditHistoryEntry) {
  // The update trigger re-indexes the message; it must be in the index first, even if this
  // transaction created it.
  indexInsertedMessages(tx);
  await tx.update(messages)
    .set({ ...changes, editHistory: withEditEntry(entry) })
    .where(eq(messages.id, messageId));
}

// ---- Queries of the actions ----

/** Whether a channel's topic (by its lower-cased key) has any message. */
export async function topicHasMessages(db: Reader, channelId: number, topicKey: string): Promise<boolean> {
  return (await sqlRows(db, sql`SELECT 1 FROM messages WHERE channel_id = ${channelId} AND topic_key = ${topicKey} LIMIT 1`)).length > 0;
}

/** Messages with these IDs (missing ones left out), edit history included, in no particular order. */
export async function messagesByIds(db: Reader, ids: number[]): Promise<Message[]> {
  return await db.select().from(messages).where(inArray(messages.id, ids));
}
