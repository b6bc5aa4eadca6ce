import { and, asc, eq, lte } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { scheduledMessages } from "./tables";
export type { ScheduledMessageType } from "./columnTypes";

export type ScheduledMessage = typeof scheduledMessages.$inferSelect;
/** What scheduling and editing set. */
export type ScheduledMessageFields = Pick<ScheduledMessage, "type" | "to" | "topic" | "content" | "renderedContent" | "client" | "scheduledTimestamp">;

/** A user's messages still to be sent (failed ones included), soonest first. */
export async function listUndeliveredScheduledMessages(db: Reader, senderId: number): Promise<ScheduledMessage[]> {
  return await db
    .select()
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.senderId, senderId), eq(scheduledMessages.delivered, false)))
    .orderBy(asc(scheduledMessages.scheduledTimestamp), asc(scheduledMessages.id));
}

export async function findScheduledMessage(db: Reader, senderId: number, id: number): Promise<ScheduledMessage | undefined> {
  return (await db
    .select()
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.id, id), eq(scheduledMessages.senderId, senderId))))[0];
}

export async function findScheduledMessageById(db: Reader, id: number): Promise<ScheduledMessage | undefined> {
  return (await db.select().from(scheduledMessages).where(eq(scheduledMessages.id, id)))[0];
}

/** IDs of the messages due at `at` and not yet tried, in the order they were due. */
export async function dueScheduledMessageIds(db: Reader, at: number, limit: number): Promise<number[]> {
  return (await db
    .select({ id: scheduledMessages.id })
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.delivered, false), eq(scheduledMessages.failed, false), lte(scheduledMessages.scheduledTimestamp, at)))
    .orderBy(asc(scheduledMessages.scheduledTimestamp), asc(scheduledMessages.id))
    .limit(limit))
    .map((row) => row.id);
}

/** The earliest time a message not yet tried is due, if any. */
export async function nextScheduledTimestamp(db: Reader): Promise<number | undefined> {
  return (await db
    .select({ at: scheduledMessages.scheduledTimestamp })
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.delivered, false), eq(scheduledMessages.failed, false)))
    .orderBy(asc(scheduledMessages.scheduledTimestamp))
    .limit(1))[0]?.at;
}

export async function insertScheduledMessage(tx: Tx, senderId: number, fields: ScheduledMessageFields & { readBySender: boolean }): Promise<ScheduledMessage> {
  return (await tx
    .insert(scheduledMessages)
    .values({ ...fields, senderId })
    .returning())[0];
}

/** An edit; it also clears an earlier failure, as the reference does. */
export async function updateScheduledMessage(tx: Tx, id: number, fields: Partial<ScheduledMessageFields>): Promise<ScheduledMessage> {
  return (await tx
    .update(scheduledMessages)
    .set({ ...fields, failed: false, failureMessage: null })
    .where(eq(scheduledMessages.id, id))
    .returning())[0]!;
}

export async function deleteScheduledMessage(tx: Tx, id: number) {
  await tx.delete(scheduledMessages).where(eq(scheduledMessages.id, id));
}

export async function markScheduledMessageDelivered(tx: Tx, id: number, messageId: number) {
  await tx.update(scheduledMessages).set({ delivered: true, deliveredMessageId: messageId }).where(eq(scheduledMessages.id, id));
}

export async function markScheduledMessageFailed(tx: Tx, id: number, failureMessage: string): Promise<ScheduledMessage> {
  return (await tx.update(scheduledMessages).set({ failed: true, failureMessage }).where(eq(scheduledMessages.id, id)).returning())[0]!;
}
