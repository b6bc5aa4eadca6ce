import { transactionOf } from "./handles";
import { rawStatement } from "./prepared";
import type { SendTx, Tx } from "./types";

/**
 * PostgreSQL: a send's rows without a round trip each. Every statement awaited in a write
 * transaction is a round trip to the server, and writes take turns (db/transaction.ts), so on
 * PostgreSQL a batch of sends holds every node's writes for as many round trips as it has
 * statements. The inserts whose answers the send does not need are sent without waiting: the
 * client puts them on the connection behind each other (pipelining), the server runs them in
 * that order, and what the transaction reads later is behind them on the same connection, so it
 * sees them. They are settled before the transaction commits; a failure among them fails the
 * transaction. A message's ID, the one answer an insert would give, comes from the sequence
 * ahead of time, for as many messages as the transaction expects (group commit says how many).
 *
 * SQLite runs each statement at once, in microseconds, and needs none of this.
 */

/** Sends `write` on its way; the transaction settles it before COMMIT. */
export function pipelined(tx: Tx | SendTx, write: Promise<unknown>) {
  const state = transactionOf(tx);
  if (!state) throw new Error("pipelined needs a transaction's handle");
  // A handler at once, so a failure is never reported as unhandled before it is settled.
  const settled = write.then(() => undefined);
  settled.catch(() => {});
  state.pipelined.push(settled);
}

/** Waits for every pipelined write of the transaction; throws the first failure. */
export async function settlePipelined(tx: object): Promise<void> {
  const state = transactionOf(tx);
  if (!state || state.pipelined.length === 0) return;
  const waiting = state.pipelined;
  state.pipelined = [];
  await Promise.all(waiting);
}

/** The transaction will insert about `count` more messages: IDs are taken for them in one go. */
export function expectMessages(tx: SendTx, count: number) {
  const state = transactionOf(tx);
  if (state) state.messageIds.expected = Math.max(1, count);
}

const MAX_RESERVED = 256;
const takeMessageIds = rawStatement<never, [number]>("", "SELECT nextval('messages_id_seq') FROM generate_series(1, $1)");

/** The next message ID (PostgreSQL), from those taken from the sequence for this transaction. */
export async function nextMessageId(tx: Tx | SendTx): Promise<number> {
  const state = transactionOf(tx)!;
  const ids = state.messageIds;
  if (ids.reserved.length === 0) {
    // Taken inside the writers' turn, so IDs still grow in commit order; unused ones are gaps.
    const count = Math.min(MAX_RESERVED, Math.max(1, ids.expected));
    ids.reserved = (await takeMessageIds(tx).values(count)).map(([id]) => Number(id));
  }
  ids.expected = Math.max(1, ids.expected - 1);
  return ids.reserved.shift()!;
}
