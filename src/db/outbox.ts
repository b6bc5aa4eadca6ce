import { and, asc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { whenCommitted } from "./handles";
import type { Reader, SendTx, Tx } from "./types";
import type { OutboxItem } from "./columnTypes";
import { outbox } from "./tables";
export type { OutboxItem, OutgoingWebhookPayload } from "./columnTypes";

export async function enqueueOutbox(tx: SendTx, item: OutboxItem, now: number) {
  tx.insert(outbox).values({ kind: item.kind, payload: item.payload, createdAt: now, nextAttemptAt: now }).run();
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
  return db
    .select()
    .from(outbox)
    .where(and(gt(outbox.id, afterId), isNull(outbox.sentAt), isNull(outbox.gaveUpAt)))
    .orderBy(asc(outbox.id))
    .limit(limit)
    .all();
}

/** The highest item ID there is (0 for none): where the next look for new items may start. */
export async function lastOutboxId(db: Reader): Promise<number> {
  return db.select({ id: sql<number | null>`max(${outbox.id})` }).from(outbox).get()?.id ?? 0;
}

/** Items still to deliver (neither sent nor given up), by kind. */
export async function countPendingOutbox(db: Reader): Promise<Map<string, number>> {
  const rows = db
    .select({ kind: outbox.kind, count: sql<number>`count(*)` })
    .from(outbox)
    .where(and(isNull(outbox.sentAt), isNull(outbox.gaveUpAt)))
    .groupBy(outbox.kind)
    .all();
  return new Map(rows.map((row) => [row.kind, row.count]));
}

export async function getOutboxItem(db: Reader, id: number): Promise<OutboxRow | undefined> {
  return db.select().from(outbox).where(eq(outbox.id, id)).get();
}

/** Delivered: never tried again. Only a pending item is marked, so a mark is never repeated. */
export async function markOutboxSent(tx: Tx, id: number, attempts: number, now: number) {
  tx.update(outbox).set({ sentAt: now, attempts, lastError: null }).where(and(eq(outbox.id, id), isNull(outbox.sentAt))).run();
}

/** A failed try: counted, and the next one not before `nextAttemptAt`. */
export async function markOutboxFailed(tx: Tx, id: number, attempts: number, nextAttemptAt: number, error: string) {
  tx.update(outbox).set({ attempts, nextAttemptAt, lastError: error }).where(and(eq(outbox.id, id), isNull(outbox.sentAt))).run();
}

export async function markOutboxGivenUp(tx: Tx, id: number, attempts: number, now: number, error: string) {
  tx.update(outbox).set({ attempts, gaveUpAt: now, lastError: error }).where(and(eq(outbox.id, id), isNull(outbox.sentAt))).run();
}

/** Forgets items finished (sent or given up) before `before`: the table keeps recent history only. */
export async function pruneFinishedOutbox(tx: Tx, before: number) {
  tx.delete(outbox).where(or(lt(outbox.sentAt, before), lt(outbox.gaveUpAt, before))).run();
}
