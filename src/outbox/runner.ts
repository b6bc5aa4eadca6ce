import { getOutboxItem, markOutboxFailed, markOutboxGivenUp, markOutboxSent, nextDueOutboxItem, type OutboxRow, pruneFinishedOutbox } from "../db/outbox";
import { read, write } from "../db/transaction";
import { log } from "../log";
import { type Deliverer, GiveUp, type OutboxKind } from "./deliverers";
import { deliverers } from "./index";

/**
 * The outbox sender: takes due items in ID order, one at a time, and hands each to the
 * deliverer of its kind, outside any transaction. It runs only when nudged (after a commit that
 * queued something, and by the job's sweep), so request handling never waits for it; only one
 * pass runs at a time, and a nudge during a pass makes it look again before stopping.
 */

export interface OutboxPolicy {
  /** Delay after the first failure; doubled after each further one. */
  retryBaseSeconds: number;
  /** The longest delay between tries. */
  retryMaxSeconds: number;
  /** Tries before giving up, for kinds that do not set maxAttempts. */
  maxAttempts: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Finished items are kept this long (for looking into what went out), then deleted. */
const KEEP_FINISHED_SECONDS = 30 * 24 * 3600;

let policy: OutboxPolicy | null = null;
let running: Promise<void> | null = null;
let lookAgain = false;

export function startOutboxRunner(options: OutboxPolicy) {
  policy = options;
}

/** How long a clean stop waits for a delivery in flight before closing the database under it. */
const STOP_WAIT_MS = 15_000;

/**
 * Stops taking new items and waits (a bounded while) for the one in flight to finish and be
 * marked, so that a clean stop never sends an item twice: the database closes only after.
 */
export async function stopOutboxRunner(): Promise<void> {
  policy = null;
  if (!running) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = await Promise.race([running.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), STOP_WAIT_MS)))]);
  clearTimeout(timer);
  if (!waited) log.warn(`outbox: a delivery was still under way after ${STOP_WAIT_MS / 1000} s; it will be tried again at the next start`);
}

/** The delay before try number `attempts + 1`, after `attempts` failures. */
export function backoffSeconds(attempts: number, { retryBaseSeconds, retryMaxSeconds }: OutboxPolicy): number {
  const delay = retryBaseSeconds * 2 ** Math.max(0, attempts - 1);
  return Math.max(1, Math.ceil(Math.min(delay, retryMaxSeconds)));
}

/**
 * Kinds held back for now: their items wait untouched (mail while no SMTP server is
 * configured). Kinds without a deliverer are not held: their items are taken and given up.
 */
export function heldKinds(): OutboxKind[] {
  return (Object.keys(deliverers) as OutboxKind[]).filter((kind) => !(deliverers[kind].ready?.() ?? true));
}

/** Asks for a pass over due items; returns when the pass (this one or the running one) ends. */
export function nudgeOutbox(): Promise<void> {
  if (!policy) return Promise.resolve();
  if (running) {
    lookAgain = true;
    return running;
  }
  running = drain()
    .catch((error) => log.error(`outbox: sender stopped on an error: ${(error as Error)?.stack ?? error}`))
    .finally(() => {
    running = null;
  });
  return running;
}

async function drain() {
  do {
    lookAgain = false;
    const held = heldKinds();
    for (;;) {
      if (!policy) return;
      const item = read((db) => nextDueOutboxItem(db, nowSeconds(), held));
      if (!item) break;
      await attempt(item, policy);
    }
  } while (lookAgain);
}

async function attempt(item: OutboxRow, options: OutboxPolicy) {
  const deliverer = deliverers[item.kind] as Deliverer<OutboxKind> | undefined;
  const number = item.attempts + 1;
  if (!deliverer) {
    // A kind this version does not know (a database from a newer Parley): nothing can send it.
    giveUp(item, number - 1, `No deliverer for outbox items of kind '${item.kind}'`, undefined);
    return;
  }
  try {
    await withDeadline(deliverer.deliver(item.payload, { itemId: item.id, number, createdAt: item.createdAt }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const maxAttempts = deliverer.maxAttempts ?? options.maxAttempts;
    if (error instanceof GiveUp || number >= maxAttempts) {
      giveUp(item, number, message, deliverer);
      return;
    }
    const delay = backoffSeconds(number, options);
    write((tx) => markOutboxFailed(tx, item.id, number, nowSeconds() + delay, message));
    log.warn(`outbox: item ${item.id} (${item.kind}) failed on try ${number}, next in ${delay} s: ${message}`);
    return;
  }
  write((tx) => markOutboxSent(tx, item.id, number, nowSeconds()));
  log.info(`outbox: item ${item.id} (${item.kind}) delivered on try ${number}`);
}

function giveUp(item: OutboxRow, attempts: number, message: string, deliverer: Deliverer<OutboxKind> | undefined) {
  write((tx) => markOutboxGivenUp(tx, item.id, attempts, nowSeconds(), message));
  log.warn(`outbox: gave up item ${item.id} (${item.kind}) after ${attempts} tries: ${message}`);
  try {
    deliverer?.gaveUp?.(item.payload, message);
  } catch (error) {
    log.error(`outbox: gaveUp of item ${item.id} (${item.kind}) failed: ${(error as Error)?.stack ?? error}`);
  }
}

/**
 * A deliverer that never settles must not stop the sender for good: after this long its try
 * counts as failed (deliverers keep their own, shorter network timeouts).
 */
const DELIVERY_DEADLINE_MS = 5 * 60_000;

function withDeadline(delivery: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DELIVERY_DEADLINE_MS / 1000} s`)), DELIVERY_DEADLINE_MS);
  });
  return Promise.race([delivery, deadline]).finally(() => clearTimeout(timer));
}

/** Deletes items finished long ago; run by the job's sweep. */
export function pruneOutbox() {
  write((tx) => pruneFinishedOutbox(tx, nowSeconds() - KEEP_FINISHED_SECONDS));
}

/** For tests and tools: the stored state of one item. */
export const outboxItem = (id: number) => read((db) => getOutboxItem(db, id));
