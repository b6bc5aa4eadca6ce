import { rawStatement } from "./prepared";
import { writeSendBatch } from "./transaction";
import type { SendTx } from "./types";

/**
 * Group commit for sending messages: changes requested within one turn of the event loop run
 * in one send transaction (a SendTx, which keeps the caches of db/caches.ts), and every request
 * is answered once that transaction has committed. A commit per request would be the cost that matters most (with the full-text
 * index, a transaction's fixed cost is several times that of the row it stores); this way
 * durability per acknowledged change is unchanged.
 *
 * Each change sees the ones queued before it. A change that fails before writing anything (an
 * ApiError from validation, typically) fails alone. One that fails after writing cannot be
 * undone alone without a savepoint per change, and savepoints are what made batching slow:
 * FTS5 writes its pending index data to disk at every savepoint. So that rare case rolls the
 * whole batch back and runs its changes again, each in a transaction of its own.
 */

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

interface Queued {
  change: (tx: SendTx) => unknown;
  settle: (outcome: Outcome<unknown>) => void;
}

/** Bounds one transaction's length, so a burst cannot hold the write lock for long. */
const MAX_BATCH = 256;

let queued: Queued[] = [];

// Rows changed on this connection so far: how a failed change is known to have written.
const totalChangesQuery = rawStatement<{ count: number }, []>("SELECT total_changes() AS count");
const totalChanges = () => totalChangesQuery().values()[0][0] as number;

/** Thrown out of a batch's transaction, rolling it back: a change failed after writing. */
class FailedAfterWriting extends Error {}

/** A message send's change, committed together with the sends queued in the same turn. */
export function writeSend<T>(change: (tx: SendTx) => T): Promise<T> {
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
    outcomes = writeSendBatch((tx) => batch.map((item) => attempt(tx, item.change)));
  } catch (error) {
    if (error instanceof FailedAfterWriting) return oneByOne(batch);
    // The commit itself failed: nothing in the batch happened.
    for (const item of batch) item.settle({ ok: false, error });
    return;
  }
  batch.forEach((item, i) => item.settle(outcomes[i]));
}

/** Runs one change of a batch, keeping its events only if it succeeds. */
function attempt(tx: SendTx, change: (tx: SendTx) => unknown): Outcome<unknown> {
  const emitted: Array<Parameters<SendTx["emit"]>> = [];
  const own: SendTx = Object.create(tx, { emit: { value: (...args: Parameters<SendTx["emit"]>) => emitted.push(args) } });
  const changesBefore = totalChanges();
  try {
    const value = change(own);
    for (const args of emitted) tx.emit(...args);
    return { ok: true, value };
  } catch (error) {
    if (totalChanges() !== changesBefore) throw new FailedAfterWriting();
    return { ok: false, error };
  }
}

function oneByOne(batch: Queued[]) {
  for (const item of batch) {
    try {
      item.settle({ ok: true, value: writeSendBatch(item.change) });
    } catch (error) {
      item.settle({ ok: false, error });
    }
  }
}
