import { and, eq, inArray, sql } from "drizzle-orm";
import { Flag, messageFlags, type Message } from "../db/messages";
import { type MessageKey, storeBitsOfUsers } from "../db/messageState";
import type { Reader, Tx } from "../db/types";
import { apiFlags } from "../shapes/messages";

/**
 * Read state across a move between channels. A message's read state is relative to the read
 * mark of its conversation (db/messageState.ts), so when messages change conversation each
 * user's READ/UNREAD exception bits are rewritten against the new mark: those who could see
 * them before keep what they had, those who gain them find them read (as the reference marks
 * them), and those who lose them lose their flags on them too.
 */

const READ_BITS = Flag.READ | Flag.UNREAD;

/** Read marks of these users (thousands, for a channel) in one conversation; the list travels as one JSON parameter. */
function marksFor(db: Reader, recipientId: number, userIds: number[]): Map<number, number> {
  if (userIds.length === 0) return new Map();
  const rows = db.values<[number, number]>(
    sql`SELECT user_id, read_up_to FROM read_marks WHERE recipient_id = ${recipientId} AND user_id IN (SELECT value FROM json_each(${JSON.stringify(userIds)}))`,
  );
  return new Map(rows);
}

/** Flag bits of these messages, by user, then by message. */
function bitsFor(db: Reader, messageIds: number[]): Map<number, Map<number, number>> {
  const bits = new Map<number, Map<number, number>>();
  for (let i = 0; i < messageIds.length; i += 500) {
    const rows = db.select().from(messageFlags).where(inArray(messageFlags.messageId, messageIds.slice(i, i + 500))).all();
    for (const row of rows) (bits.get(row.userId) ?? bits.set(row.userId, new Map()).get(row.userId)!).set(row.messageId, row.flags);
  }
  return bits;
}

const isReadAgainst = (bits: number, messageId: number, mark: number) => (bits & Flag.READ) !== 0 || ((bits & Flag.UNREAD) === 0 && messageId <= mark);

export interface MoveAudiences {
  /** Could see the messages before and still can. */
  keeping: number[];
  gaining: number[];
  losing: number[];
}

/** The messages (ascending IDs) with an ID above `low` and at most `high`. */
function between(moved: MessageKey[], low: number, high: number): MessageKey[] {
  const first = moved.findIndex((message) => message.id > low);
  if (first === -1) return [];
  let end = first;
  while (end < moved.length && moved[end].id <= high) end++;
  return moved.slice(first, end);
}

/**
 * Rewrites flag rows for messages that moved from `fromRecipientId` to `toRecipientId` (rows
 * not yet re-pointed). Only what changes is looked at: for a user without flags on a message,
 * its read state changes only when it lies between their read marks of the two conversations,
 * so with thousands of people and hundreds of messages the work stays small.
 */
export function carryReadState(tx: Tx, moved: MessageKey[], fromRecipientId: number, toRecipientId: number, audiences: MoveAudiences) {
  const ascending = [...moved].sort((a, b) => a.id - b.id);
  const ids = ascending.map((message) => message.id);
  const bits = bitsFor(tx, ids);
  const oldMarks = marksFor(tx, fromRecipientId, audiences.keeping);
  const newMarks = marksFor(tx, toRecipientId, [...audiences.keeping, ...audiences.gaining]);
  const changes: Array<{ userId: number; message: MessageKey; bits: number }> = [];
  const rewrite = (userId: number, message: MessageKey, read: boolean) => {
    const before = bits.get(userId)?.get(message.id) ?? 0;
    const mark = newMarks.get(userId) ?? 0;
    const after = (before & ~READ_BITS) | (read && message.id > mark ? Flag.READ : 0) | (!read && message.id <= mark ? Flag.UNREAD : 0);
    if (after !== before) changes.push({ userId, message: { ...message, recipientId: toRecipientId }, bits: after });
  };
  const withBits = (userId: number) => ascending.filter((message) => bits.get(userId)?.has(message.id));
  for (const userId of audiences.keeping) {
    const oldMark = oldMarks.get(userId) ?? 0;
    const newMark = newMarks.get(userId) ?? 0;
    const candidates = new Set([...between(ascending, Math.min(oldMark, newMark), Math.max(oldMark, newMark)), ...withBits(userId)]);
    for (const message of candidates) rewrite(userId, message, isReadAgainst(bits.get(userId)?.get(message.id) ?? 0, message.id, oldMark));
  }
  // Gained messages are read: only those above the new mark, or with flags, need a row.
  for (const userId of audiences.gaining) {
    const candidates = new Set([...between(ascending, newMarks.get(userId) ?? 0, Infinity), ...withBits(userId)]);
    for (const message of candidates) rewrite(userId, message, true);
  }
  storeBitsOfUsers(tx, changes);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    if (audiences.losing.length > 0) tx.delete(messageFlags).where(and(inArray(messageFlags.userId, audiences.losing), inArray(messageFlags.messageId, chunk))).run();
    tx.update(messageFlags).set({ recipientId: toRecipientId }).where(inArray(messageFlags.messageId, chunk)).run();
  }
}

/**
 * Each user's flags on one message, for the update_message event. `subscribed`: users for whom
 * the message can be unread (channel subscribers, DM participants); for anyone else it is read.
 */
export function flagsOnMessage(db: Reader, message: Pick<Message, "id" | "recipientId">, userIds: number[], subscribed: Set<number>): Map<number, string[]> {
  const marks = marksFor(db, message.recipientId, userIds);
  const rows = db.select().from(messageFlags).where(eq(messageFlags.messageId, message.id)).all();
  const bits = new Map(rows.map((row) => [row.userId, row.flags]));
  return new Map(
    userIds.map((userId) => {
      const own = bits.get(userId) ?? 0;
      // Outside one's subscriptions nothing is unread unless marked so by hand.
      const read = isReadAgainst(own, message.id, subscribed.has(userId) ? (marks.get(userId) ?? 0) : Infinity);
      return [userId, apiFlags(own, read)];
    }),
  );
}
