import { sql } from "drizzle-orm";
import { write } from "./transaction";
import type { Tx } from "./types";

/**
 * Group commit for hot write paths (sending messages): changes requested within one turn of
 * the event loop run in one transaction, each inside its own savepoint, and every request is
 * answered once that transaction has committed. A commit per request would be the cost that
 * matters most (with the full-text index, a transaction's fixed cost is several times that of
 * the row it stores); this way durability per acknowledged change is unchanged.
 *
 * Each change sees the ones queued before it, and its failure (an ApiError, typically) rolls
 * back only its own savepoint and events; the others still commit.
 */

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

interface Queued {
  change: (tx: Tx) => unknown;
  settle: (outcome: Outcome<unknown>) => void;
}

/** Bounds one transaction's length, so a burst cannot hold the write lock for long. */
const MAX_BATCH = 256;

let queued: Queued[] = [];

const SAVEPOINT = sql.raw("SAVEPOINT shared_change");
const RELEASE = sql.raw("RELEASE shared_change");
const ROLLBACK = sql.raw("ROLLBACK TO shared_change");

/**
 * Only for sending messages: batches commit as non-structural transactions (see
 * db/generation.ts), so a change queued here must not alter the realm, accounts or
 * subscriptions.
 */
export function writeShared<T>(change: (tx: Tx) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (queued.length === 0) setImmediate(flush);
    queued.push({ change, settle: (outcome) => (outcome.ok ? resolve(outcome.value as T) : reject(outcome.error)) });
  });
}

function flush() {
  const batch = queued.splice(0, MAX_BATCH);
  if (queued.length > 0) setImmediate(flush);
  let outcomes: Array<Outcome<unknown>>;
  try {
    outcomes = write((tx) => batch.map((item) => inSavepoint(tx, item.change)), { structural: false });
  } catch (error) {
    // The commit itself failed: nothing in the batch happened.
    for (const item of batch) item.settle({ ok: false, error });
    return;
  }
  batch.forEach((item, i) => item.settle(outcomes[i]));
}

/** Runs one change in a savepoint, keeping its events only if it succeeds. */
function inSavepoint(tx: Tx, change: (tx: Tx) => unknown): Outcome<unknown> {
  const emitted: Array<Parameters<Tx["emit"]>> = [];
  const own: Tx = Object.create(tx, { emit: { value: (...args: Parameters<Tx["emit"]>) => emitted.push(args) } });
  tx.run(SAVEPOINT);
  try {
    const value = change(own);
    tx.run(RELEASE);
    for (const args of emitted) tx.emit(...args);
    return { ok: true, value };
  } catch (error) {
    tx.run(ROLLBACK);
    tx.run(RELEASE);
    return { ok: false, error };
  }
}
