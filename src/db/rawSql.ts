import type { SQL } from "drizzle-orm";
import { dialect } from "./dialect";
import { connectionOf } from "./handles";
import { postgresClientOf } from "./postgresConnection";

/**
 * Statements written in SQL (drizzle's sql``) rather than with the query builder, run on the
 * connection of the handle given, in either dialect: the builder's `.all()`/`.values()`/`.run()`
 * on a connection are SQLite's alone. Always awaited; SQLite answers at once.
 *
 * The text must be valid in both dialects, or ask dialect() and build each (db/sqlLists.ts has
 * the lists). What PostgreSQL gives back is made to look like SQLite's: bigint as numbers
 * (db/postgresConnection.ts); booleans stay booleans (SQLite gives 0 or 1), so compare them
 * by truthiness.
 */

interface SqliteConnection {
  all<Row>(query: SQL): Row[];
  values<Row extends unknown[]>(query: SQL): Row[];
  run(query: SQL): unknown;
}

interface PostgresConnection {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
}

function postgresQuery(db: object, query: SQL) {
  const { sql: text, params } = (connectionOf(db) as unknown as PostgresConnection).dialect.sqlToQuery(query);
  return postgresClientOf(db).unsafe(text, params);
}

/** The rows `query` finds, as objects keyed by column name. */
export async function sqlRows<Row>(db: object, query: SQL): Promise<Row[]> {
  if (dialect() === "postgres") return (await postgresQuery(db, query)) as unknown as Row[];
  return (connectionOf(db) as unknown as SqliteConnection).all<Row>(query);
}

/** The rows `query` finds, as arrays in the order of its columns. */
export async function sqlValues<Row extends unknown[]>(db: object, query: SQL): Promise<Row[]> {
  if (dialect() === "postgres") return (await postgresQuery(db, query).values()) as Row[];
  return (connectionOf(db) as unknown as SqliteConnection).values<Row>(query);
}

/** Runs a statement that returns nothing to read (INSERT, UPDATE, DELETE). */
export async function runSql(db: object, query: SQL): Promise<void> {
  if (dialect() === "postgres") await postgresQuery(db, query);
  else (connectionOf(db) as unknown as SqliteConnection).run(query);
}
