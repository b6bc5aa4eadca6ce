import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";

/** Anything queries can read through: the database or an open transaction. */
export type Reader = BaseSQLiteDatabase<"sync", void, Record<string, unknown>>;

/**
 * An event emitted in a transaction, with the users it is for. db/ carries it unopened to the
 * commit listener (the event registry, wired by the app); since db/ may not import the event
 * types, events/types.ts completes this interface with `event` and `options` (declaration
 * merging), which is what makes `tx.emit` take exactly the event union.
 */
export interface Emitted {
  userIds: number[];
}

/**
 * A write transaction that may be part of a message send (db/groupCommit.ts): it may store
 * messages, their flags and per-user state, and emit events, but not change what the caches of
 * db/caches.ts hold. Functions that may run inside a send take this; every Tx is one.
 */
export type SendTx = Reader & {
  emit(event: Emitted["event"], userIds: Iterable<number>, options?: Emitted["options"]): void;
};

declare const mayChangeAnything: unique symbol;

/**
 * An open write() transaction: it may change anything. Events emitted on it go to the commit
 * listener after COMMIT, and vanish with a rollback. A SendTx is not a Tx, so a send cannot
 * reach a write that would leave the caches stale.
 */
export type Tx = SendTx & { readonly [mayChangeAnything]: true };

declare const upkeepOnly: unique symbol;

/**
 * An upkeep write (db/transaction.ts writeUpkeep): it changes only what no copy in
 * db/caches.ts is made from (the search index's segments, stored presence) and emits nothing,
 * so the copies stay valid across it. Not a Tx or a SendTx, and neither is one.
 */
export type UpkeepTx = Reader & { readonly [upkeepOnly]: true };

/** A write() (anything may change), a group-committed batch of message sends, an upkeep write, or a read(). */
export type TransactionKind = "write" | "send" | "upkeep" | "read";
