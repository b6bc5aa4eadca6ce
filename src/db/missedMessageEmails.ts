import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Reader, Tx, UpkeepTx } from "./types";
import { missedMessageEmails } from "./tables";

export type MissedMessageEmailRow = typeof missedMessageEmails.$inferSelect;

/** Messages to mail unless read first; a message already waiting for the user is left as it is. */
export async function queueMissedMessageEmails(tx: Tx | UpkeepTx, rows: Array<Omit<MissedMessageEmailRow, "id">>) {
  if (rows.length === 0) return;
  await tx.insert(missedMessageEmails).values(rows).onConflictDoNothing();
}

/** Users and conversations with a message due by `now`, at most `limit` of them. */
export async function dueMissedMessageConversations(db: Reader, now: number, limit: number): Promise<Array<{ userId: number; recipientId: number }>> {
  return await db
    .selectDistinct({ userId: missedMessageEmails.userId, recipientId: missedMessageEmails.recipientId })
    .from(missedMessageEmails)
    .where(lte(missedMessageEmails.dueAt, now))
    .orderBy(asc(missedMessageEmails.userId), asc(missedMessageEmails.recipientId))
    .limit(limit);
}

/** Everything waiting for the user in one conversation, due or not: it goes in one e-mail. */
export async function missedMessagesOf(db: Reader, userId: number, recipientId: number): Promise<MissedMessageEmailRow[]> {
  return await db
    .select()
    .from(missedMessageEmails)
    .where(and(eq(missedMessageEmails.userId, userId), eq(missedMessageEmails.recipientId, recipientId)))
    .orderBy(asc(missedMessageEmails.messageId));
}

export async function deleteMissedMessageEmails(tx: Tx, ids: number[]) {
  for (let i = 0; i < ids.length; i += 500) await tx.delete(missedMessageEmails).where(inArray(missedMessageEmails.id, ids.slice(i, i + 500)));
}

export const countMissedMessageEmails = async (db: Reader) => (await db.select({ count: sql<number>`count(*)` }).from(missedMessageEmails))[0].count;
