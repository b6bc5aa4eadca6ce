import { rawStatement } from "./prepared";

/**
 * Feeding new messages to the full-text index (messages_fts, migrations 0001 and 0002). A
 * transaction's new messages are indexed in one statement just before it commits: FTS5 costs
 * about a third as much per message that way as through a trigger per row, and the index is
 * still never behind what is committed. IDs only grow and one connection writes, so the
 * messages one transaction inserts are the range from its first new ID to its last.
 */

let inserted: { first: number; last: number } | null = null;
// How many, kept until the transaction ends (indexing may happen early, see applyMessageEdit.ts).
let insertedCount = 0;

/** insertMessage calls this for every row it adds. */
export function messageInserted(id: number) {
  if (inserted === null) inserted = { first: id, last: id };
  else inserted.last = id;
  insertedCount++;
}

/** After a COMMIT: how many messages the transaction stored (counted for GET /metrics). */
export function takeInsertedCount(): number {
  const count = insertedCount;
  insertedCount = 0;
  return count;
}

// Messages deleted again in the same transaction are simply not there to be indexed.
const indexRange = rawStatement<never, [number, number]>(
  "INSERT INTO messages_fts (rowid, content, topic, scope) SELECT id, content, topic, 'r' || recipient_id FROM messages WHERE id BETWEEN ? AND ?",
);

/** Run by transact() as the last statement of every write transaction. */
export function indexInsertedMessages() {
  if (inserted === null) return;
  const { first, last } = inserted;
  inserted = null;
  indexRange().run(first, last);
}

/** When a transaction rolls back, so do its messages. */
export function forgetInsertedMessages() {
  inserted = null;
  insertedCount = 0;
}

// ---- Merging the index ----
// FTS5 keeps its index as segments and merges them (automerge) inside the commit that adds one
// too many, which made a random commit take 50 to 140 ms on a busy index. While the server
// runs, that is off and jobs/searchIndexMerge.ts merges in small steps between requests.

/** FTS5's default: merge once this many segments are on one level. */
const AUTOMATIC_MERGE_SEGMENTS = 4;
/** Pages one step merges: a few milliseconds. */
const MERGE_STEP_PAGES = 16;

const setAutomerge = rawStatement<never, [number]>("INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', ?)");
const mergeStep = rawStatement<never, [number]>("INSERT INTO messages_fts (messages_fts, rank) VALUES ('merge', ?)");
const totalChanges = rawStatement<{ n: number }, []>("SELECT total_changes() AS n");

/** Whether commits merge the index themselves (FTS5's way) or leave it to mergeIndexStep. */
export function mergeIndexOnCommit(on: boolean) {
  setAutomerge().run(on ? AUTOMATIC_MERGE_SEGMENTS : 0);
}

/** One step of merging the index, inside a write transaction; false when nothing was left to merge. */
export function mergeIndexStep(): boolean {
  const before = totalChanges().get()!.n;
  mergeStep().run(MERGE_STEP_PAGES);
  // The command itself counts as one change; merging writes more.
  return totalChanges().get()!.n - before > 1;
}
