import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";

// Deliberately free of bun:sqlite imports: table modules use this, and drizzle-kit loads
// those under Node.
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
