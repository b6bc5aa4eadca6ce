import { rawStatement } from "./prepared";

// Free of bun:sqlite imports for the same reason as prepared.ts: table modules use it.

let commits = 0;
let writing = 0;

/** The client calls this when it opens or closes a database: nothing cached applies any more. */
export function databaseSwitched() {
  commits++;
  knownDataVersion = -1;
}

/**
 * write() brackets every transaction with these, committed or rolled back. Transactions that
 * only send messages (group commit) are not structural: they change nothing these caches
 * derive from (the realm, accounts, subscriptions), so caches stay valid through them, and
 * stay in use inside them, which is where the send path needs them.
 */
export function transactionStarted(structural: boolean) {
  if (structural) writing++;
}
export function transactionEnded(structural: boolean, committed: boolean) {
  if (structural) writing--;
  // A non-structural transaction may have filled caches from its own uncommitted rows.
  if (structural || !committed) commits++;
}

/**
 * For the one structural change a send can make (a channel's first message sets its
 * first_message_id): caches are dropped at once, so the rest of the same transaction reads
 * the new value instead of repeating the change.
 */
export function cachedStateChanged() {
  commits++;
}

// Changes committed by other connections (an operator's sqlite3, a backup tool, a test)
// move SQLite's data_version; our own commits are counted above.
const dataVersion = rawStatement<{ data_version: number }, []>("PRAGMA data_version");

/**
 * A value derived from the database and kept in memory until a structural commit, so the
 * lookups every request makes (the realm, the caller's account) cost a map lookup while the
 * data is unchanged. Inside a write transaction it always loads afresh: the transaction may
 * have changed what it derives from.
 */
// Asking SQLite costs about as much as a small query, which is too much for every request, so
// the answer is reused for a short while: an operator's change made with sqlite3 is seen
// within EXTERNAL_CHANGE_DELAY_MS.
export const EXTERNAL_CHANGE_DELAY_MS = 100;
let knownDataVersion = -1;
let askedAt = 0;
function externalDataVersion(): number {
  const now = performance.now();
  if (knownDataVersion < 0 || now - askedAt > EXTERNAL_CHANGE_DELAY_MS) {
    knownDataVersion = dataVersion().values()[0][0] as number;
    askedAt = now;
  }
  return knownDataVersion;
}

export function untilNextCommit<T>(load: () => T): () => T {
  let value: T;
  let seenCommits = -1;
  let seenDataVersion = -1;
  return () => {
    if (writing > 0) return load();
    const version = externalDataVersion();
    if (seenCommits !== commits || seenDataVersion !== version) {
      value = load();
      seenCommits = commits;
      seenDataVersion = version;
    }
    return value;
  };
}
