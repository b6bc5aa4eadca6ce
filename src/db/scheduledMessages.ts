import { and, asc, eq, lte } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { scheduledMessages } from "./tables";
export type { ScheduledMessageType } from "./columnTypes";

export type ScheduledMessage = typeof scheduledMessages.$inferSelect;
/** What scheduling and editing set. */
export type ScheduledMessageFields = Pick<ScheduledMessage, "type" | "to" | "topic" | "content" | "renderedContent" | "client" | "scheduledTimestamp">;

/** A user's messages still to be sent (failed ones included), soonest first. */
export async function listUndeliveredScheduledMessages(db: Reader, senderId: number): Promise<ScheduledMessage[]> {
  return db
    .select()
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.senderId, senderId), eq(scheduledMessages.delivered, false)))
    .orderBy(asc(scheduledMessages.scheduledTimestamp), asc(scheduledMessages.id))
    .all();
}

export async function findScheduledMessage(db: Reader, senderId: number, id: number): Promise<ScheduledMessage | undefined> {
  return db
    .select()
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.id, id), eq(scheduledMessages.senderId, senderId)))
    .get();
}

export async function findScheduledMessageById(db: Reader, id: number): Promise<ScheduledMessage | undefined> {
  return db.select().from(scheduledMessages).where(eq(scheduledMessages.id, id)).get();
}

/** IDs of the messages due at `at` and not yet tried, in the order they were due. */
export async function dueScheduledMessageIds(db: Reader, at: number, limit: number): Promise<number[]> {
  return db
    .select({ id: scheduledMessages.id })
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.delivered, false), eq(scheduledMessages.failed, false), lte(scheduledMessages.scheduledTimestamp, at)))
    .orderBy(asc(scheduledMessages.scheduledTimestamp), asc(scheduledMessages.id))
    .limit(limit)
    .all()
    .map((row) => row.id);
}

/** The earliest time a message not yet tried is due, if any. */
export async function nextScheduledTimestamp(db: Reader): Promise<number | undefined> {
  return db
    .select({ at: scheduledMessages.scheduledTimestamp })
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.delivered, false), eq(scheduledMessages.failed, false)))
    .orderBy(asc(scheduledMessages.scheduledTimestamp))
    .limit(1)
    .get()?.at;
}

export async function insertScheduledMessage(tx: Tx, senderId: number, fields: ScheduledMessageFields & { readBySender: boolean }): Promise<ScheduledMessage> {
  return tx
    .insert(scheduledMessages)
    .values({ ...fields, senderId })
    .returning()
    .get();
}

/** An edit; it also clears an earlier failure, as the reference does. */
export async function updateScheduledMessage(tx: Tx, id: number, fields: Partial<ScheduledMessageFields>): Promise<ScheduledMessage> {
  return tx
    .update(scheduledMessages)
    .set({ ...fields, failed: false, failureMessage: null })
    .where(eq(scheduledMessages.id, id))
    .returning()
    .get()!;
}

export async function deleteScheduledMessage(tx: Tx, id: number) {
  tx.delete(scheduledMessages).where(eq(scheduledMessages.id, id)).run();
}

export async function markScheduledMessageDelivered(tx: Tx, id: number, messageId: number) {
  tx.update(scheduledMessages).set({ delivered: true, deliveredMessageId: messageId }).where(eq(scheduledMessages.id, id)).run();
}

export async function markScheduledMessageFailed(tx: Tx, id: number, failureMessage: string): Promise<ScheduledMessage> {
  return tx.update(scheduledMessages).set({ failed: true, failureMessage }).where(eq(scheduledMessages.id, id)).returning().get()!;
}
