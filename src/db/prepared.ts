import type { Database, SQLQueryBindings } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";

// Deliberately free of bun:sqlite imports other than types (which vanish when compiled): table
// modules use this, and drizzle-kit loads those under Node.
type Db = BunSQLiteDatabase<Record<string, unknown>>;

let current: Db | null = null;

/** Called by the database client when it opens or closes the connection. */
export function usePreparedQueriesOn(db: unknown) {
  current = db as Db | null;
}

/**
 * A query drizzle builds and compiles once per open database, for hot paths: building the
 * SQL text costs drizzle several times what SQLite needs to run a single-row lookup. Use
 * `sql.placeholder(name)` for values, then `.get({ name: value })`. There is one connection,
 * so inside a write() these queries see the open transaction's changes.
 */
export function prepared<Query>(build: (db: Db) => Query): () => Query {
  const byDatabase = new WeakMap<Db, Query>();
  return () => {
    if (!current) throw new Error("The database is not open");
    let query = byDatabase.get(current);
    if (query === undefined) byDatabase.set(current, (query = build(current)));
    return query;
  };
}

/**
 * Raw SQL compiled once per open database, for the few statements on the send path where
 * drizzle's own cost showed (db/sendQueries.ts says which and why). Finish each run: get() on
 * an INSERT ... RETURNING leaves the statement open, which keeps WAL checkpoints from
 * completing; use run() and lastInsertRowid, or values().
 */
export function rawStatement<Row, Params extends SQLQueryBindings[]>(text: string) {
  return prepared((db) => (db as unknown as { $client: Database }).$client.query<Row, Params>(text));
}
