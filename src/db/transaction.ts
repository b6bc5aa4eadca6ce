import { database } from "./client";
import { type TransactionKind, transactionEnded, transactionStarted } from "./caches";
import { noteWriteFailure, noteWriteSucceeded } from "./diskSpace";
import { forgetInsertedMessages, indexInsertedMessages, takeInsertedCount } from "./searchIndex";
import type { Emitted, Reader, SendTx, Tx } from "./types";

/** Takes everything a committed write() emitted; the app wires it to the event registry. */
type CommitListener = (emitted: Emitted[]) => void;
let commitListener: CommitListener | null = null;

export function onCommit(listener: CommitListener) {
  commitListener = listener;
}

let messagesCommitted = 0;

/** Messages stored by committed transactions since the process started, for GET /metrics. */
export const messagesCommittedSinceStart = () => messagesCommitted;

/**
 * Runs one state change in one IMMEDIATE transaction, handing each event it emits to
 * `collect`. The callback must be synchronous: with bun:sqlite an async callback would commit
 * before its awaits ran, so slow work (hashing, network) belongs before or after.
 */
export function transact<T>(change: (tx: Tx) => T, collect: (emitted: Emitted) => void): T {
  return transactAs("write", change as (tx: SendTx) => T, collect);
}

function transactAs<T>(kind: TransactionKind, change: (tx: SendTx) => T, collect: (emitted: Emitted) => void): T {
  transactionStarted(kind);
  let committed = false;
  try {
    const value = database().transaction(
      (drizzleTx) => {
        const tx = Object.assign(drizzleTx, {
          emit(event: Emitted["event"], userIds: Iterable<number>, options?: Emitted["options"]) {
            collect({ event, userIds: [...new Set(userIds)], options });
          },
        }) as unknown as SendTx;
        const value = change(tx);
        if (value instanceof Promise) throw new Error("write() callbacks must be synchronous");
        indexInsertedMessages();
        return value;
      },
      { behavior: "immediate" },
    );
    committed = true;
    messagesCommitted += takeInsertedCount();
    noteWriteSucceeded();
    return value;
  } catch (error) {
    noteWriteFailure(error);
    throw error;
  } finally {
    if (!committed) forgetInsertedMessages();
    transactionEnded(kind, committed);
  }
}

/** One state change in one transaction; its events go to the commit listener after COMMIT. */
export function write<T>(change: (tx: Tx) => T): T {
  return publishing((collect) => transact(change, collect));
}

/** write() for a batch of message sends: only db/groupCommit.ts runs these (see db/caches.ts for what differs). */
export function writeSendBatch<T>(change: (tx: SendTx) => T): T {
  return publishing((collect) => transactAs("send", change, collect));
}

function publishing<T>(run: (collect: (emitted: Emitted) => void) => T): T {
  const emitted: Emitted[] = [];
  const result = run((one) => emitted.push(one));
  if (emitted.length > 0) commitListener?.(emitted);
  return result;
}

/** Runs reads against one consistent snapshot. */
export function read<T>(query: (db: Reader) => T): T {
  return database().transaction((tx) => query(tx as unknown as Reader), { behavior: "deferred" });
}

/**
 * Runs reads straight on the connection, outside any transaction: for a lookup or two where
 * opening a snapshot costs more than the reads (the send path's checks and rendering, sign-in).
 * Each statement sees what is committed when it runs.
 */
export function readWithoutSnapshot<T>(query: (db: Reader) => T): T {
  return query(database());
}
