import type { Database, SQLQueryBindings } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { connectionOf } from "./handles";

// Deliberately free of bun:sqlite imports other than types (which vanish when compiled): table
// modules use this, and drizzle-kit loads those under Node.
type Db = BunSQLiteDatabase<Record<string, unknown>>;

/**
 * A query drizzle builds and compiles once per connection, for hot paths: building the SQL
 * text costs drizzle several times what SQLite needs to run a single-row lookup. Use
 * `sql.placeholder(name)` for values, then `.get({ name: value })`. Call it with the handle the
 * query runs in (`query(tx).get(...)`): it is compiled on that handle's connection, so inside a
 * write() it sees the open transaction's changes, and inside a read() the read's snapshot.
 */
export function prepared<Query>(build: (db: Db) => Query): (db: object) => Query {
  const byConnection = new WeakMap<object, Query>();
  return (db) => {
    const connection = connectionOf(db);
    let query = byConnection.get(connection);
    if (query === undefined) byConnection.set(connection, (query = build(connection as unknown as Db)));
    return query;
  };
}

/**
 * Raw SQL compiled once per connection, for the few statements on the send path where
 * drizzle's own cost showed (db/sendQueries.ts says which and why). Finish each run: get() on
 * an INSERT ... RETURNING leaves the statement open, which keeps WAL checkpoints from
 * completing; use run() and lastInsertRowid, or values().
 */
export function rawStatement<Row, Params extends SQLQueryBindings[]>(text: string) {
  return prepared((db) => (db as unknown as { $client: Database }).$client.query<Row, Params>(text));
}
