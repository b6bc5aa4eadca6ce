import { readConnection, writeConnection, type Db } from "./client";
import { cacheEpoch, transactionEnded } from "./caches";
import { noteWriteFailure, noteWriteSucceeded } from "./diskSpace";
import { type Handle, openHandle, transactionOf } from "./handles";
import { dialect } from "./dialect";
import { appendToEventLog, encodeBatch, type LoggedBatch } from "./eventLog";
import { postgresClientOf } from "./postgresConnection";
import { settlePipelined } from "./pipelining";
import { indexInsertedMessages } from "./searchIndex";
import type { Emitted, Reader, SendTx, Tx, TransactionKind, UpkeepTx } from "./types";
import { Turns } from "./turns";

/**
 * The store's transactions: `await write(async (tx) => ...)` for a change, `await read(...)`
 * for a consistent snapshot. What keeps them right:
 *
 * - One writer at a time. Writes take turns (first come, first served) on the write
 *   connection, each in an IMMEDIATE transaction that stays open across its callback's awaits;
 *   nothing else runs statements on that connection meanwhile.
 * - Reads run on their own connection (WAL lets it read while a write is open), so a read never
 *   sees what an open write has not committed, and never waits for a write to finish.
 * - Events leave after COMMIT, in commit order: the writer hands them to the commit listener
 *   before the next writer's turn begins; a rollback delivers nothing.
 * - A callback that does not await runs its whole transaction at once when the writer is free
 *   (an async function runs up to its first await), as SQLite's synchronous driver allows.
 */

/**
 * Takes everything a committed write() emitted; the app wires it to the event registry. It runs
 * while the writer still holds its turn (awaited if it returns a Promise), so the next
 * transaction's events cannot overtake these.
 */
type CommitListener = (emitted: Emitted[], logged?: LoggedBatch) => void | Promise<void>;
let commitListener: CommitListener | null = null;

export function onCommit(listener: CommitListener) {
  commitListener = listener;
}

/**
 * In a cluster, this node's name: every write transaction then appends its events to the event
 * log (db/eventLog.ts) before its COMMIT, and the commit listener gets the row with them. A
 * write() that may change what caches hold logs a row even without events, so that other nodes
 * drop their copies. Null (one process): nothing is logged.
 */
let loggingNode: string | null = null;

export function logEventsAs(node: string | null) {
  loggingNode = node;
}

let messagesCommitted = 0;

/** Messages stored by committed transactions since the process started, for GET /metrics. */
export const messagesCommittedSinceStart = () => messagesCommitted;

const writerTurns = new Turns();
const readerTurns = new Turns();

/** One state change in one transaction; its events go to the commit listener after COMMIT. */
export function write<T>(change: (tx: Tx) => T | Promise<T>): Promise<T> {
  return writerTurns.run(() => transact("write", change as (tx: SendTx) => T | Promise<T>, publish));
}

/** write() for a batch of message sends: only db/groupCommit.ts runs these (see db/caches.ts for what differs). */
export function writeSendBatch<T>(change: (tx: SendTx) => T | Promise<T>): Promise<T> {
  return writerTurns.run(() => transact("send", change, publish));
}

/**
 * write() for upkeep that no cached copy depends on (merging the search index, saving
 * presence): it takes its turn like any write, but the copies of db/caches.ts stay valid
 * across it, so a timer's work every fraction of a second does not make every request
 * reload them.
 */
export function writeUpkeep<T>(change: (tx: UpkeepTx) => T | Promise<T>): Promise<T> {
  return writerTurns.run(() => transact("upkeep", change as unknown as (tx: SendTx) => T | Promise<T>, publish));
}

/**
 * write() that hands back what the change emitted instead of publishing it: for tests that
 * check exactly who would hear of a change.
 */
export async function writeCollecting<T>(change: (tx: Tx) => T | Promise<T>): Promise<{ value: T; emitted: Emitted[] }> {
  let emitted: Emitted[] = [];
  const value = await writerTurns.run(() => transact("write", change as (tx: SendTx) => T | Promise<T>, (all) => {
    emitted = all;
  }));
  return { value, emitted };
}

const publish: CommitListener = (emitted, logged) => commitListener?.(emitted, logged);

async function transact<T>(kind: Exclude<TransactionKind, "read">, change: (tx: SendTx) => T | Promise<T>, afterCommit: CommitListener): Promise<T> {
  const connection = writeConnection();
  const emitted: Emitted[] = [];
  const handle = openHandle(connection, kind, (one) => emitted.push(one)) as unknown as SendTx;
  let committed = false;
  let value: T;
  let logged: LoggedBatch | undefined;
  try {
    const begun = beginWrite(connection);
    if (begun) await begun;
    try {
      const result = change(handle);
      value = result instanceof Promise ? await result : result;
      await settlePipelined(handle);
      indexInsertedMessages(handle);
      if (loggingNode !== null && (emitted.length > 0 || kind === "write")) {
        const batch = encodeBatch(emitted);
        logged = { id: await appendToEventLog(handle, loggingNode, kind === "write", batch), node: loggingNode, invalidates: kind === "write", batch };
      }
      const done = finish(connection, "COMMIT");
      if (done) await done;
      committed = true;
    } catch (error) {
      await rollBack(connection);
      throw error;
    }
    messagesCommitted += transactionOf(handle)!.insertedCount;
    noteWriteSucceeded();
  } catch (error) {
    noteWriteFailure(error);
    throw error;
  } finally {
    closeHandle(handle, kind, committed);
  }
  // Still the writer's turn: the next transaction's events cannot overtake these.
  if (emitted.length > 0 || logged) {
    const delivered = afterCommit(emitted, logged);
    if (delivered instanceof Promise) await delivered;
  }
  for (const then of transactionOf(handle)!.committed) then();
  return value;
}

/** Runs reads against one consistent snapshot, on the read connection. */
export function read<T>(query: (db: Reader) => T | Promise<T>): Promise<T> {
  return readerTurns.run(async () => {
    const connection = readConnection();
    const handle = openHandle(connection, "read", undefined, cacheEpoch()) as unknown as Reader;
    const begun = beginRead(connection);
    if (begun) await begun;
    try {
      const result = query(handle);
      return result instanceof Promise ? await result : result;
    } finally {
      const done = finish(connection, "COMMIT");
      closeHandle(handle, "read", true);
      if (done) await done;
    }
  });
}

/**
 * Across nodes sharing a PostgreSQL database, writes take turns as they do within one: every
 * write transaction first takes this advisory lock, held until it commits or rolls back. (A
 * later step may let writes that cannot conflict go side by side; every rule that counts on one
 * writer at a time holds as long as this does.)
 */
const WRITER_LOCK = 7_256_002;

/** SQLite begins at once (no Promise); PostgreSQL's statements are awaited. */
function beginWrite(connection: Db): void | PromiseLike<unknown> {
  if (dialect() === "postgres") return postgresClientOf(connection).unsafe(`BEGIN; SELECT pg_advisory_xact_lock(${WRITER_LOCK})`);
  connection.$client.run("BEGIN IMMEDIATE");
}

/** A read's snapshot: PostgreSQL's REPEATABLE READ sees one snapshot for the whole transaction, as SQLite's read transaction does. */
function beginRead(connection: Db): void | PromiseLike<unknown> {
  if (dialect() === "postgres") return postgresClientOf(connection).unsafe("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  connection.$client.run("BEGIN DEFERRED");
}

function finish(connection: Db, statement: "COMMIT" | "ROLLBACK"): void | PromiseLike<unknown> {
  if (dialect() === "postgres") return postgresClientOf(connection).unsafe(statement);
  connection.$client.run(statement);
}

/** A failed COMMIT may have rolled back already (SQLITE_FULL does): then there is nothing to undo. */
async function rollBack(connection: Db) {
  if (dialect() === "postgres") await finish(connection, "ROLLBACK");
  else if (connection.$client.inTransaction) finish(connection, "ROLLBACK");
}

function closeHandle(handle: Handle | SendTx | Reader, kind: TransactionKind, committed: boolean) {
  (handle as Handle).close();
  transactionEnded(kind, committed);
}

/**
 * Runs reads on the read connection outside any transaction: for a lookup or two where opening
 * a snapshot costs more than the reads (the send path's checks and rendering, sign-in). Each
 * statement sees what is committed when it runs. It takes the read connection's turn, so it
 * never runs inside another read's snapshot.
 */
export function readWithoutSnapshot<T>(query: (db: Reader) => T | Promise<T>): Promise<T> {
  return readerTurns.run(async () => {
    const handle = openHandle(readConnection(), "read") as unknown as Reader;
    try {
      return await query(handle);
    } finally {
      closeHandle(handle, "read", true);
    }
  });
}
