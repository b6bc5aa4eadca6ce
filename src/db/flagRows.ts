import { and, eq, inArray, sql } from "drizzle-orm";
import { Flag } from "./messages";
import { clearBits, listUnread, type UnreadRow } from "./messageState";
import { sqlValues } from "./rawSql";
import { idList } from "./sqlLists";
import type { Reader, Tx } from "./types";
import { messageFlags, messages } from "./tables";

/**
 * Flag rows and read marks (db/messages.ts, db/messageState.ts) for many users or a stretch
 * of history at once: what marking read in bulk and moving messages between conversations
 * read and write.
 */

// ---- Marking read in bulk ----

/** Which messages a walk through history considers: one conversation, one topic, one sender, or all. */
export type UnreadAmong = { recipientId: number } | { channelId: number; topicKey: string } | { senderId: number };

const amongCondition = (among: UnreadAmong | undefined) => {
  if (among === undefined) return undefined;
  if ("recipientId" in among) return eq(messages.recipientId, among.recipientId);
  if ("senderId" in among) return eq(messages.senderId, among.senderId);
  return and(eq(messages.channelId, among.channelId), eq(messages.topicKey, among.topicKey));
};

/** The user's unread messages with IDs in [from, below) among `among`, oldest first, at most `limit`. */
export async function listUnreadBetween(db: Reader, userId: number, ids: { from: number; below: number }, among: UnreadAmong | undefined, limit: number): Promise<UnreadRow[]> {
  const where = and(sql`${messages.id} >= ${ids.from} AND ${messages.id} < ${ids.below}`, amongCondition(among));
  return listUnread(db, userId, { where, oldestFirst: true, limit });
}

/** Drops the user's READ and UNREAD exception bits on one conversation's messages from `from` up to and including `upTo`. */
export async function clearReadBitsBetween(tx: Tx, userId: number, recipientId: number, from: number, upTo: number) {
  await clearBits(tx, userId, Flag.READ | Flag.UNREAD, and(eq(messageFlags.recipientId, recipientId), sql`${messageFlags.messageId} BETWEEN ${from} AND ${upTo}`));
}

// ---- Moves between conversations ----

/** Read marks of these users (thousands, for a channel) in one conversation. */
export async function readMarksOfUsers(db: Reader, recipientId: number, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await sqlValues<[number, number]>(db, sql`SELECT user_id, read_up_to FROM read_marks WHERE recipient_id = ${recipientId} AND user_id IN ${idList(userIds)}`);
  return new Map(rows);
}

/** Flag bits of these messages, by user, then by message. */
export async function flagBitsByUser(db: Reader, messageIds: number[]): Promise<Map<number, Map<number, number>>> {
  const bits = new Map<number, Map<number, number>>();
  for (let i = 0; i < messageIds.length; i += 500) {
    const rows = await db.select().from(messageFlags).where(inArray(messageFlags.messageId, messageIds.slice(i, i + 500)));
    for (const row of rows) (bits.get(row.userId) ?? bits.set(row.userId, new Map()).get(row.userId)!).set(row.messageId, row.flags);
  }
  return bits;
}

/** Each user's flag bits on one message (users without a row left out). */
export async function flagBitsOnMessage(db: Reader, messageId: number): Promise<Map<number, number>> {
  const rows = await db.select().from(messageFlags).where(eq(messageFlags.messageId, messageId));
  return new Map(rows.map((row) => [row.userId, row.flags]));
}

/** Points the flag rows of moved messages at their new conversation, dropping those of users who lost the messages. */
export async function moveFlagRows(tx: Tx, messageIds: number[], toRecipientId: number, losingUserIds: number[]) {
  for (let i = 0; i < messageIds.length; i += 500) {
    const chunk = messageIds.slice(i, i + 500);
    if (losingUserIds.length > 0) await tx.delete(messageFlags).where(and(inArray(messageFlags.userId, losingUserIds), inArray(messageFlags.messageId, chunk)));
    await tx.update(messageFlags).set({ recipientId: toRecipientId }).where(inArray(messageFlags.messageId, chunk));
  }
}

// ---- Pushed notifications ----

/** Those of the messages whose notification is shown on the user's devices (Flag.PUSHED), and the bit cleared on them. */
export async function takePushed(tx: Tx, userId: number, messageIds: number[]): Promise<number[]> {
  if (messageIds.length === 0) return [];
  const rows = await sqlValues<[number]>(tx, sql`SELECT message_id FROM message_flags WHERE user_id = ${userId} AND message_id IN ${idList(messageIds)} AND (flags & ${Flag.PUSHED}) != 0`);
  const pushed = rows.map(([id]) => id);
  if (pushed.length > 0) await clearBits(tx, userId, Flag.PUSHED, inArray(messageFlags.messageId, pushed));
  return pushed;
}
