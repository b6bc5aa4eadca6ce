import type { SQLQueryBindings } from "bun:sqlite";
import { dialect } from "./dialect";
import { expectMessages, settlePipelined } from "./pipelining";
import { rawStatement } from "./prepared";
import { writeSendBatch } from "./transaction";
import type { SendTx } from "./types";

/**
 * Group commit for sending messages: changes requested before a batch's transaction begins run
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
  change: (tx: SendTx) => unknown | Promise<unknown>;
  settle: (outcome: Outcome<unknown>) => void;
}

/** Bounds one transaction's length, so a burst cannot hold the write lock for long. */
const MAX_BATCH = 256;

let queued: Queued[] = [];

// Rows changed on the write connection so far: how a failed change is known to have written.
// One transaction writes at a time, so a change of the count is this change's doing.
// PostgreSQL has no such count, and a statement that fails there spoils the whole transaction
// anyway: every failed change counts as one that wrote (the batch runs again one by one).
const totalChangesQuery = rawStatement<{ count: number }, []>("SELECT total_changes() AS count");
const totalChanges = (tx: SendTx) => (dialect() === "postgres" ? 0 : ((totalChangesQuery(tx).values() as SQLQueryBindings[][])[0][0] as number));

/** Thrown out of a batch's transaction, rolling it back: a change failed after writing. */
class FailedAfterWriting extends Error {}

/** A flush is scheduled or waits for the writer's turn: sends arriving meanwhile join its batch. */
let flushPending = false;

/** A message send's change, committed together with the sends queued until its batch begins. */
export function writeSend<T>(change: (tx: SendTx) => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queued.push({ change, settle: (outcome) => (outcome.ok ? resolve(outcome.value as T) : reject(outcome.error)) });
    scheduleFlush();
  });
}

function scheduleFlush() {
  if (flushPending || queued.length === 0) return;
  flushPending = true;
  setImmediate(flush);
}

/**
 * The batch is taken when its transaction has begun, not when the flush was scheduled: the
 * sends that arrived while it waited for the writer (another write on SQLite; on PostgreSQL also
 * the other nodes, behind the advisory lock) go in it, rather than each waiting in a batch of
 * its own. On SQLite a free writer begins at once, in the same turn: the batch is then what
 * arrived within one turn of the event loop, as before.
 */
async function flush() {
  let batch: Queued[] | null = null;
  const take = () => {
    batch = queued.splice(0, MAX_BATCH);
    flushPending = false;
    scheduleFlush();
    return batch;
  };
  let outcomes: Array<Outcome<unknown>>;
  try {
    outcomes = await writeSendBatch(async (tx) => {
      const each: Array<Outcome<unknown>> = [];
      const items = take();
      expectMessages(tx, items.length);
      for (const item of items) each.push(await attempt(tx, item.change));
      // A pipelined insert (PostgreSQL) that failed belongs to one of the changes, which
      // one is not known: they run again one by one, as for a change that failed after writing.
      await settlePipelined(tx).catch(() => {
        throw new FailedAfterWriting();
      });
      return each;
    });
  } catch (error) {
    // The transaction did not begin: the sends it would have taken fail with it.
    const failed: Queued[] = batch ?? take();
    if (error instanceof FailedAfterWriting) return oneByOne(failed);
    // The commit itself failed: nothing in the batch happened.
    for (const item of failed) item.settle({ ok: false, error });
    return;
  }
  batch!.forEach((item, i) => item.settle(outcomes[i]));
}

/** Runs one change of a batch, keeping its events only if it succeeds. */
async function attempt(tx: SendTx, change: Queued["change"]): Promise<Outcome<unknown>> {
  const emitted: Array<Parameters<SendTx["emit"]>> = [];
  const own: SendTx = Object.create(tx, { emit: { value: (...args: Parameters<SendTx["emit"]>) => emitted.push(args) } });
  const changesBefore = totalChanges(tx);
  try {
    const value = await change(own);
    for (const args of emitted) tx.emit(...args);
    return { ok: true, value };
  } catch (error) {
    if (dialect() === "postgres" || totalChanges(tx) !== changesBefore) throw new FailedAfterWriting();
    return { ok: false, error };
  }
}

async function oneByOne(batch: Queued[]) {
  for (const item of batch) {
    try {
      item.settle({ ok: true, value: await writeSendBatch(item.change) });
    } catch (error) {
      item.settle({ ok: false, error });
    }
  }
}
