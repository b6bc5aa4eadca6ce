import { flagBitsByUser, flagBitsOnMessage, moveFlagRows, readMarksOfUsers } from "../db/flagRows";
import { Flag, type Message } from "../db/messages";
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
export async function carryReadState(tx: Tx, moved: MessageKey[], fromRecipientId: number, toRecipientId: number, audiences: MoveAudiences) {
  const ascending = [...moved].sort((a, b) => a.id - b.id);
  const ids = ascending.map((message) => message.id);
  const bits = await flagBitsByUser(tx, ids);
  const oldMarks = await readMarksOfUsers(tx, fromRecipientId, audiences.keeping);
  const newMarks = await readMarksOfUsers(tx, toRecipientId, [...audiences.keeping, ...audiences.gaining]);
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
  await storeBitsOfUsers(tx, changes);
  await moveFlagRows(tx, ids, toRecipientId, audiences.losing);
}

/**
 * Each user's flags on one message, for the update_message event. `subscribed`: users for whom
 * the message can be unread (channel subscribers, DM participants); for anyone else it is read.
 */
export async function flagsOnMessage(db: Reader, message: Pick<Message, "id" | "recipientId">, userIds: number[], subscribed: Set<number>): Promise<Map<number, string[]>> {
  const marks = await readMarksOfUsers(db, message.recipientId, userIds);
  const bits = await flagBitsOnMessage(db, message.id);
  return new Map(
    userIds.map((userId) => {
      const own = bits.get(userId) ?? 0;
      // Outside one's subscriptions nothing is unread unless marked so by hand.
      const read = isReadAgainst(own, message.id, subscribed.has(userId) ? (marks.get(userId) ?? 0) : Infinity);
      return [userId, apiFlags(own, read)];
    }),
  );
}
