import { transactionOf } from "./handles";
import type { SQLQueryBindings } from "bun:sqlite";
import { sql } from "drizzle-orm";
import { dialect } from "./dialect";
import { sqlValues } from "./rawSql";
import { rawStatement } from "./prepared";
import type { Reader, TransactionKind } from "./types";

// Free of bun:sqlite imports for the same reason as prepared.ts: table modules use it.

/**
 * The in-memory copies of state that every request or send reads and that rarely changes,
 * each declared by name with cachedUntilChange(), and the one rule that keeps them honest:
 *
 * - A copy holds until a write() transaction ends (it may have changed anything) or another
 *   process commits (seen within EXTERNAL_CHANGE_DELAY_MS). Inside a write(), copies load
 *   afresh through its handle and are not kept: its own changes are not committed yet. Reads
 *   that run meanwhile (on the read connection) see the last commit, and keep using, or fill,
 *   the copies of it. A read() whose snapshot began before a write ended sees the state from
 *   before it: it loads copies of its own and keeps none.
 * - Message sends run in send transactions (SendTx, db/groupCommit.ts). Their writes leave the
 *   copies valid, so copies stay in use inside them, where the send path needs them; the one
 *   exception, a channel's first message, goes through a db/ function that drops its copy by
 *   name (cacheChanged). A send transaction that rolls back drops every copy, since some may
 *   have been filled from its rows.
 * - Upkeep writes (writeUpkeep: the search index's merges, stored presence) change nothing a
 *   copy is made from, committed or not: copies stay valid across them and in use inside them.
 *
 * Only db/ needs to know this: writes that would leave a copy stale take a Tx, which a send's
 * SendTx is not.
 */
export type CacheName = "realm" | "verifiedAccounts" | "channelsForSending" | "channelSubscribers" | "channelRecipients" | "linkifiers"
  | "outgoingWebhookBots" | "realmEmoji" | "alertWords" | "mutedUsers" | "topicsWithMessages" | "webPushUsers" | "serverSettings";

/** Moves at every end of a write() and every switch of database: every copy is then stale. */
let epoch = 0;
const drops = new Map<CacheName, () => void>();

/** The write connection, where data_version is asked (below). */
let writer: object | null = null;

/** Where the copies' rule stands now: read() records it when it begins (see cacheOf). */
export const cacheEpoch = () => epoch;

/** The client calls this when it opens or closes a database: nothing cached applies any more. */
export function databaseSwitched(writeConnection: object | null) {
  writer = writeConnection;
  epoch++;
  knownDataVersion = -1;
}

/** db/transaction.ts calls this at the end of every transaction, committed or rolled back. */
export function transactionEnded(kind: TransactionKind, committed: boolean) {
  if (kind === "write" || (kind === "send" && !committed)) epoch++;
}

/**
 * A send transaction changed what one copy holds: it is dropped at once, so the rest of the
 * transaction reads the new value. A copy not declared in this process has nothing to drop.
 */
export function cacheChanged(name: CacheName) {
  drops.get(name)?.();
}

// Changes committed by other connections (an operator's sqlite3, a backup tool, a test)
// move SQLite's data_version; our own commits are counted above. It is asked of the write
// connection, where our own commits do not move it (on the read connection they would).
const dataVersion = rawStatement<{ data_version: number }, []>("PRAGMA data_version");

// Asking SQLite costs about as much as a small query, which is too much for every request, so
// the answer is reused for a short while: an operator's change made with sqlite3 is seen
// within EXTERNAL_CHANGE_DELAY_MS.
export const EXTERNAL_CHANGE_DELAY_MS = 100;
let knownDataVersion = -1;
let askedAt = 0;
function externalDataVersion(): number {
  if (dialect() === "postgres") return postgresVersion;
  const now = performance.now();
  if (knownDataVersion < 0 || now - askedAt > EXTERNAL_CHANGE_DELAY_MS) {
    knownDataVersion = (dataVersion(writer!).values() as SQLQueryBindings[][])[0][0] as number;
    askedAt = now;
  }
  return knownDataVersion;
}

// PostgreSQL has no data_version. What stands in for it is the position of its write-ahead log,
// which moves with every commit that changed anything, whoever made it: other nodes, an
// operator's psql. It moves with this node's own commits too, so under a stream of sends the
// copies are reloaded at every look: a cost, never a stale copy. A job looks every
// PARLEY_CHANGE_CHECK_MS (jobs/cacheBackstop.ts); in a cluster the bus's invalidations come
// sooner, and this is the backstop should one be missed.
let postgresVersion = 0;
let walPosition = "";

/** PostgreSQL only: looks whether anything was committed since the last look. */
export async function checkForExternalChanges(): Promise<void> {
  if (dialect() !== "postgres" || writer === null) return;
  const source = writer;
  const [[position]] = await sqlValues<[string]>(source, sql`SELECT pg_current_wal_insert_lsn()::text`);
  if (writer === source && position !== walPosition) {
    walPosition = position;
    postgresVersion++;
  }
}

/** What another node told us it changed (the bus): every copy is reloaded. */
export function changedElsewhere() {
  postgresVersion++;
}

/**
 * A value derived from the database, kept in memory by the rule above, so the lookups every
 * request makes (the realm, the caller's account) cost a map lookup while the data is unchanged.
 */
export function cachedUntilChange<T>(name: CacheName, load: (db: Reader) => T): Cached<T> {
  return cacheOf(name, load);
}

export interface Cached<T> {
  (db: Reader): T;
  /**
   * The copy of the last commit, asked outside any transaction: undefined when it would have
   * to be loaded. A hit needs no handle, so no turn on the read connection: the requests that
   * only need the realm get it without queueing behind others' reads.
   */
  ifCurrent(): T | undefined;
}

/**
 * A copy kept by the same rule whose loading reads nothing (an empty map that callers fill):
 * asked for outside any transaction, so without a handle.
 */
export function keptUntilChange<T>(name: CacheName, make: () => T): () => T {
  const cache = cacheOf(name, make);
  return () => cache(undefined);
}

function cacheOf<T>(name: CacheName, load: (db: Reader) => T): Cached<T> & ((db: Reader | undefined) => T) {
  if (drops.has(name)) throw new Error(`Two caches named ${name}`);
  let value: T;
  let seenEpoch = -1;
  let seenDataVersion = -1;
  drops.set(name, () => {
    seenEpoch = -1;
  });
  const ifCurrent = () => (seenEpoch === epoch && seenDataVersion === externalDataVersion() ? value : undefined);
  return Object.assign((db: Reader | undefined) => {
    const transaction = db === undefined ? undefined : transactionOf(db);
    if (transaction?.kind === "write") return load(db!);
    // A read whose snapshot began before a write ended sees the state from before that write:
    // it gets a copy of its own, so that it neither keeps nor fills (the maps callers fill)
    // a copy that others take for the last commit.
    if (transaction?.snapshotEpoch !== undefined && transaction.snapshotEpoch !== epoch) return load(db!);
    const version = externalDataVersion();
    if (seenEpoch !== epoch || seenDataVersion !== version) {
      value = load(db!);
      seenEpoch = epoch;
      seenDataVersion = version;
      // A load that fails is not kept: the next call tries again.
      if (value instanceof Promise) value.catch(() => seenEpoch === epoch && (seenEpoch = -1));
    }
    return value;
  }, { ifCurrent });
}
