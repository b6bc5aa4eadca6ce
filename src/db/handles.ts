import type { Database } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { Emitted, TransactionKind } from "./types";

// The connection type, spelled out rather than imported from client.ts: every table module
// reaches this file (through prepared.ts), and client.ts imports every table.
type Db = BunSQLiteDatabase<Record<string, unknown>> & { $client: Database };

/**
 * What a transaction's handle (the `tx` or `db` its callback gets) carries besides the
 * connection's query builder: which kind of transaction it is, whether it is still open, and
 * what it has done that must be settled at its end. State per transaction, not per module: a
 * read may run while a write is open, and what each may cache differs (db/caches.ts).
 */
export interface TransactionState {
  readonly kind: TransactionKind;
  readonly connection: Db;
  open: boolean;
  /** IDs of the messages this transaction inserted, for the full-text index (db/searchIndex.ts). */
  inserted: { first: number; last: number } | null;
  insertedCount: number;
  /** Run once the transaction has committed (see whenCommitted). */
  committed: Array<() => void>;
  /** PostgreSQL: writes sent without waiting for their answers, settled before COMMIT (db/pipelining.ts). */
  pipelined: Array<Promise<unknown>>;
  /** PostgreSQL: message IDs taken from the sequence and not used yet, and how many more this transaction expects to insert. */
  messageIds: { reserved: number[]; expected: number };
  /**
   * For a read with a snapshot: the caches' epoch when it began (db/caches.ts). Should a write
   * end meanwhile, what it loads is older than the copies' rule allows keeping.
   */
  readonly snapshotEpoch?: number;
}

const STATE = Symbol("transaction");

export type Handle = Db & { readonly [STATE]: TransactionState; close(): void };

/**
 * A handle over `connection` for one transaction. It is the connection's drizzle database
 * underneath (its builders run statements on that connection), with `emit` for writes. The
 * methods live on one prototype per connection; a handle adds only its state, since reads and
 * writes make one each.
 */
export function openHandle(connection: Db, kind: TransactionKind, collect?: (emitted: Emitted) => void, snapshotEpoch?: number): Handle {
  const handle = Object.create(prototypeFor(connection)) as { [STATE]: TransactionState; [COLLECT]?: (emitted: Emitted) => void };
  handle[STATE] = { kind, connection, open: true, inserted: null, insertedCount: 0, committed: [], pipelined: [], messageIds: { reserved: [], expected: 1 }, snapshotEpoch };
  if (collect) handle[COLLECT] = collect;
  return handle as unknown as Handle;
}

const COLLECT = Symbol("collect");
const prototypes = new WeakMap<Db, object>();

function prototypeFor(connection: Db): object {
  let prototype = prototypes.get(connection);
  if (prototype === undefined) {
    prototype = Object.create(connection, {
      close: {
        value(this: Handle) {
          this[STATE].open = false;
        },
      },
      emit: {
        value(this: Handle & { [COLLECT]?: (emitted: Emitted) => void }, event: Emitted["event"], userIds: Iterable<number>, options?: Emitted["options"]) {
          const collect = this[COLLECT];
          if (!collect) throw new Error("Events are emitted only in write transactions");
          if (!this[STATE].open) throw new Error("An event was emitted after its transaction ended");
          collect({ event, userIds: [...new Set(userIds)], options });
        },
      },
    });
    prototypes.set(connection, prototype!);
  }
  return prototype!;
}

/** The transaction a handle belongs to; undefined for the bare connection (db/ internals, start-up). */
export function transactionOf(db: object): TransactionState | undefined {
  return (db as Partial<Handle>)[STATE];
}

/** The connection a handle runs its statements on. */
export function connectionOf(db: object): Db {
  return transactionOf(db)?.connection ?? (db as Db);
}

/**
 * Runs `then` once the transaction `tx` belongs to has committed (never, if it rolls back): for
 * telling someone who will look for what it wrote, which another connection sees only then.
 */
export function whenCommitted(tx: object, then: () => void) {
  const state = transactionOf(tx);
  if (!state) throw new Error("whenCommitted needs a transaction's handle");
  state.committed.push(then);
}
