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
