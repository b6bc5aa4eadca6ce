import { rawStatement } from "./prepared";

/**
 * Feeding new messages to the full-text index (messages_fts, migrations 0001 and 0002). A
 * transaction's new messages are indexed in one statement just before it commits: FTS5 costs
 * about a third as much per message that way as through a trigger per row, and the index is
 * still never behind what is committed. IDs only grow and one connection writes, so the
 * messages one transaction inserts are the range from its first new ID to its last.
 */

let inserted: { first: number; last: number } | null = null;
// How many, kept until the transaction ends (indexing may happen early, see rewriteMessage in messages.ts).
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
// FTS5 keeps its index as segments and merges them inside the commit that adds one too many
// (automerge, at 4 segments on a level, and all at once at 16, crisismerge), which made a
// random commit take 50 to 250 ms on a busy index. While the server runs, both wait for far
// more segments than ever pile up, and jobs/searchIndexMerge.ts merges in small steps between
// requests instead.

/** FTS5's defaults: merge some at this many segments on one level, all of them at the second. */
const AUTOMATIC_MERGE_SEGMENTS = 4;
const CRISIS_MERGE_SEGMENTS = 16;
/**
 * Segments on one level before a commit merges them while the server merges in the
 * background: a backstop for a long stretch without a pause to merge in.
 */
const BACKGROUND_CRISIS_SEGMENTS = 256;
/** Pages one step merges: a few milliseconds. */
const MERGE_STEP_PAGES = 16;

const setAutomerge = rawStatement<never, [number]>("INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', ?)");
const setCrisismerge = rawStatement<never, [number]>("INSERT INTO messages_fts (messages_fts, rank) VALUES ('crisismerge', ?)");
const mergeStep = rawStatement<never, [number]>("INSERT INTO messages_fts (messages_fts, rank) VALUES ('merge', ?)");
const totalChanges = rawStatement<{ n: number }, []>("SELECT total_changes() AS n");

/** Whether commits merge the index themselves (FTS5's way) or leave it to mergeIndexStep. */
export function mergeIndexOnCommit(on: boolean) {
  setAutomerge().run(on ? AUTOMATIC_MERGE_SEGMENTS : 0);
  setCrisismerge().run(on ? CRISIS_MERGE_SEGMENTS : BACKGROUND_CRISIS_SEGMENTS);
}

/** One step of merging the index, inside a write transaction; false when nothing was left to merge. */
export function mergeIndexStep(): boolean {
  const before = totalChanges().get()!.n;
  mergeStep().run(MERGE_STEP_PAGES);
  // The command itself counts as one change; merging writes more.
  return totalChanges().get()!.n - before > 1;
}
