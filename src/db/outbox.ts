import { and, asc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { whenCommitted } from "./handles";
import type { Reader, SendTx, Tx, UpkeepTx } from "./types";
import type { OutboxItem } from "./columnTypes";
import { outbox } from "./tables";
export type { OutboxItem, OutgoingWebhookPayload } from "./columnTypes";

export async function enqueueOutbox(tx: SendTx | UpkeepTx, item: OutboxItem, now: number, notBefore = now) {
  await tx.insert(outbox).values({ kind: item.kind, payload: item.payload, createdAt: now, nextAttemptAt: notBefore });
  whenCommitted(tx, notifyQueued);
}

export type OutboxRow = typeof outbox.$inferSelect;

/**
 * Told after enqueueOutbox, so the sender can start at once rather than at its next sweep:
 * once the transaction that queued the item has committed (told earlier, the sender would look
 * before the item is visible and find it only at the next sweep; a rollback tells no one).
 */
let queuedListener: (() => void) | null = null;

export function onOutboxQueued(listener: (() => void) | null) {
  queuedListener = listener;
}

function notifyQueued() {
  queuedListener?.();
}

/**
 * Items neither sent nor given up with an ID above `afterId`, in ID order, at most `limit`: the
 * sender learns of new items this way (by the primary key, however many wait), since writers
 * take turns and IDs therefore become visible in increasing order.
 */
export async function pendingOutboxAfter(db: Reader, afterId: number, limit: number): Promise<OutboxRow[]> {
  return await db
    .select()
    .from(outbox)
    .where(and(gt(outbox.id, afterId), isNull(outbox.sentAt), isNull(outbox.gaveUpAt)))
    .orderBy(asc(outbox.id))
    .limit(limit);
}

/** The highest item ID there is (0 for none): where the next look for new items may start. */
export async function lastOutboxId(db: Reader): Promise<number> {
  return (await db.select({ id: sql<number | null>`max(${outbox.id})` }).from(outbox))[0]?.id ?? 0;
}

/** Items still to deliver (neither sent nor given up), by kind. */
export async function countPendingOutbox(db: Reader): Promise<Map<string, number>> {
  const rows = await db
    .select({ kind: outbox.kind, count: sql<number>`count(*)` })
    .from(outbox)
    .where(and(isNull(outbox.sentAt), isNull(outbox.gaveUpAt)))
    .groupBy(outbox.kind);
  return new Map(rows.map((row) => [row.kind, row.count]));
}

export async function getOutboxItem(db: Reader, id: number): Promise<OutboxRow | undefined> {
  return (await db.select().from(outbox).where(eq(outbox.id, id)))[0];
}

/** Delivered: never tried again. Only a pending item is marked, so a mark is never repeated. */
export async function markOutboxSent(tx: Tx | UpkeepTx, id: number, attempts: number, now: number) {
  await tx.update(outbox).set({ sentAt: now, attempts, lastError: null }).where(and(eq(outbox.id, id), isNull(outbox.sentAt)));
}

/** A failed try: counted, and the next one not before `nextAttemptAt`. */
export async function markOutboxFailed(tx: Tx | UpkeepTx, id: number, attempts: number, nextAttemptAt: number, error: string) {
  await tx.update(outbox).set({ attempts, nextAttemptAt, lastError: error }).where(and(eq(outbox.id, id), isNull(outbox.sentAt)));
}

export async function markOutboxGivenUp(tx: Tx | UpkeepTx, id: number, attempts: number, now: number, error: string) {
  await tx.update(outbox).set({ attempts, gaveUpAt: now, lastError: error }).where(and(eq(outbox.id, id), isNull(outbox.sentAt)));
}

/** Forgets items finished (sent or given up) before `before`: the table keeps recent history only. */
export async function pruneFinishedOutbox(tx: Tx | UpkeepTx, before: number) {
  await tx.delete(outbox).where(or(lt(outbox.sentAt, before), lt(outbox.gaveUpAt, before)));
}
