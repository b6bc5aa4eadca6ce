import { transactionOf } from "./handles";
import { dialect } from "./dialect";
import { rawStatement } from "./prepared";
import type { SendTx, Tx, UpkeepTx } from "./types";

/**
 * Feeding new messages to the full-text index (messages_fts, migrations 0001 and 0002). A
 * transaction's new messages are indexed in one statement just before it commits: FTS5 costs
 * about a third as much per message that way as through a trigger per row, and the index is
 * still never behind what is committed. IDs only grow and one transaction writes at a time
 * (db/transaction.ts), so the messages one transaction inserts are the range from its first
 * new ID to its last.
 */

/** insertMessage calls this for every row it adds. */
export function messageInserted(tx: SendTx, id: number) {
  const state = transactionOf(tx)!;
  if (state.inserted === null) state.inserted = { first: id, last: id };
  else state.inserted.last = id;
  state.insertedCount++;
}

// Messages deleted again in the same transaction are simply not there to be indexed.
const indexRange = rawStatement<never, [number, number]>(
  "INSERT INTO messages_fts (rowid, content, topic, scope) SELECT id, content, topic, 'r' || recipient_id FROM messages WHERE id BETWEEN ? AND ?",
);

/**
 * Run by write() as the last statement of every write transaction; earlier by a change that
 * needs its new messages in the index before it goes on (see applyMessageEdit.ts).
 */
export function indexInsertedMessages(tx: SendTx) {
  const state = transactionOf(tx)!;
  if (state.inserted === null) return;
  // PostgreSQL's index is kept by PostgreSQL itself: messages_search, a GIN index over an
  // expression of each message's topic, content and recipient (migrations/postgres/0002), which
  // follows inserts, edits, moves and deletions in the same transaction.
  if (dialect() === "postgres") return void (state.inserted = null);
  const { first, last } = state.inserted;
  state.inserted = null;
  indexRange(tx).run(first, last);
}

// ---- Merging the index ----
// FTS5 keeps its index as segments and merges them inside the commit that adds one too many
// (automerge, at 4 segments on a level, and all at once at 16, crisismerge), which made a
// random commit take 50 to 250 ms on a busy index. While the server runs, both wait for far
// more segments than ever pile up, and jobs/searchIndexMerge.ts merges in small steps between
// requests instead. PostgreSQL's GIN index merges its own way: new entries wait in a pending
// list until autovacuum (or an insert that finds the list past gin_pending_list_limit) moves
// them into the index. Nothing here steps in, so on PostgreSQL both do nothing.

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
export function mergeIndexOnCommit(tx: Tx, on: boolean) {
  if (dialect() === "postgres") return;
  setAutomerge(tx).run(on ? AUTOMATIC_MERGE_SEGMENTS : 0);
  setCrisismerge(tx).run(on ? CRISIS_MERGE_SEGMENTS : BACKGROUND_CRISIS_SEGMENTS);
}

/** One step of merging the index, inside an upkeep write (it changes nothing a cached copy is made from); false when nothing was left to merge. */
export function mergeIndexStep(tx: UpkeepTx): boolean {
  if (dialect() === "postgres") return false;
  // SQLite answers these at once (no await): the step stays one synchronous piece of work.
  const count = () => (totalChanges(tx).get() as { n: number }).n;
  const before = count();
  mergeStep(tx).run(MERGE_STEP_PAGES);
  // The command itself counts as one change; merging writes more.
  return count() - before > 1;
}
