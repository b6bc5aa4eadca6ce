import { publish } from "../events/registry";
import type { Addressed, AnyEvent, DeliveryOptions } from "../events/types";
import { database } from "./client";
import { transactionEnded, transactionStarted } from "./generation";
import { forgetInsertedMessages, indexInsertedMessages } from "./searchIndex";
import type { Reader, Tx } from "./types";

/**
 * Runs one state change in one IMMEDIATE transaction, handing each event it emits to
 * `collect`. The callback must be synchronous: with bun:sqlite an async callback would commit
 * before its awaits ran, so slow work (hashing, network) belongs before or after.
 */
export function transact<T>(change: (tx: Tx) => T, collect: (addressed: Addressed) => void, options: WriteOptions = {}): T {
  const structural = options.structural ?? true;
  transactionStarted(structural);
  let committed = false;
  try {
    const value = database().transaction(
      (drizzleTx) => {
        const tx = Object.assign(drizzleTx, {
          emit(event: AnyEvent, userIds: Iterable<number>, options?: DeliveryOptions) {
            collect({ event, userIds: [...new Set(userIds)], options });
          },
        }) as unknown as Tx;
        const value = change(tx);
        if (value instanceof Promise) throw new Error("write() callbacks must be synchronous");
        indexInsertedMessages();
        return value;
      },
      { behavior: "immediate" },
    );
    committed = true;
    return value;
  } finally {
    if (!committed) forgetInsertedMessages();
    transactionEnded(structural, committed);
  }
}

export interface WriteOptions {
  /**
   * false only for transactions that send messages and do nothing else: they leave the
   * in-memory caches of db/generation.ts valid. Anything else is structural.
   */
  structural?: boolean;
}

/** One state change in one transaction; its events go to the registry after COMMIT. */
export function write<T>(change: (tx: Tx) => T, options: WriteOptions = {}): T {
  const emitted: Addressed[] = [];
  const result = transact(change, (addressed) => emitted.push(addressed), options);
  if (emitted.length > 0) publish(emitted);
  return result;
}

/** Runs reads against one consistent snapshot. */
export function read<T>(query: (db: Reader) => T): T {
  return database().transaction((tx) => query(tx as unknown as Reader), { behavior: "deferred" });
}
