import type { Database, SQLQueryBindings } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { dialect } from "./dialect";
import { connectionOf } from "./handles";
import { type PostgresClient, postgresClientOf, positionalParameters } from "./postgresConnection";

// Deliberately free of bun:sqlite imports other than types (which vanish when compiled): table
// modules use this, and drizzle-kit loads those under Node.
type Db = BunSQLiteDatabase<Record<string, unknown>>;

type Awaitable<T> = T | Promise<T>;

/**
 * A prepared query's methods as both dialects give them: SQLite answers at once, PostgreSQL
 * with a Promise. Callers await every call; the type makes a forgotten await a type error.
 */
export type Neutral<Query> = {
  [Method in keyof Query & ("get" | "all" | "values" | "run")]: Query[Method] extends (...args: infer Args) => infer Result ? (...args: Args) => Awaitable<Result> : never;
};

/**
 * A query drizzle builds and compiles once per connection, for hot paths: building the SQL
 * text costs drizzle several times what SQLite needs to run a single-row lookup. Use
 * `sql.placeholder(name)` for values, end the builder with `.prepare()`, then
 * `await query(tx).get({ name: value })`. Call it with the handle the query runs in: it is
 * compiled on that handle's connection, so inside a write() it sees the open transaction's
 * changes, and inside a read() the read's snapshot.
 *
 * On PostgreSQL the same builder gives drizzle's prepared query (Bun's client keeps the server's
 * prepared statement per connection, by its text); get, all and values are made from its
 * execute(), with values in the order the select names them.
 */
export function prepared<Query>(build: (db: Db) => Query): (db: object) => Neutral<Query> {
  return perConnection((connection) => {
    const built = build(connection as unknown as Db);
    return (dialect() === "postgres" ? onPostgres(built as unknown as PostgresPrepared) : built) as Neutral<Query>;
  });
}

/** A value made once per connection, from it: a compiled statement, or a cell the connection's queries share. */
export function perConnection<Value>(make: (connection: object) => Value): (db: object) => Value {
  const byConnection = new WeakMap<object, Value>();
  return (db) => {
    const connection = connectionOf(db);
    let value = byConnection.get(connection);
    if (value === undefined) byConnection.set(connection, (value = make(connection)));
    return value;
  };
}

/** What drizzle's pg-core gives for `.prepare()`. */
interface PostgresPrepared {
  execute(placeholders?: Record<string, unknown>): Promise<Array<Record<string, unknown>>>;
}

function onPostgres(query: PostgresPrepared) {
  return {
    get: async (placeholders?: Record<string, unknown>) => (await query.execute(placeholders))[0],
    all: (placeholders?: Record<string, unknown>) => query.execute(placeholders),
    values: async (placeholders?: Record<string, unknown>) => (await query.execute(placeholders)).map((row) => Object.values(row)),
  };
}

/**
 * Raw SQL compiled once per connection, for the few statements on the send path where
 * drizzle's own cost showed (db/sendQueries.ts says which and why). Write it with `?`
 * placeholders; on PostgreSQL they become `$1`, `$2` ..., or `postgresText` is used where the
 * dialects differ. Finish each run on SQLite: get() on an INSERT ... RETURNING leaves the
 * statement open, which keeps WAL checkpoints from completing; use run() and lastInsertRowid,
 * or values(). PostgreSQL has no lastInsertRowid: write its text with RETURNING and values().
 */
export function rawStatement<Row, Params extends unknown[]>(text: string, postgresText?: string) {
  interface Statement {
    get(...params: Params): Awaitable<Row | null>;
    all(...params: Params): Awaitable<Row[]>;
    values(...params: Params): Awaitable<SQLQueryBindings[][]>;
    /** lastInsertRowid: SQLite only. */
    run(...params: Params): Awaitable<{ changes: number; lastInsertRowid?: number | bigint }>;
  }
  return perConnection((connection): Statement => {
    if (dialect() === "postgres") return rawOnPostgres(postgresClientOf(connection), postgresText ?? positionalParameters(text)) as unknown as Statement;
    return (connection as { $client: Database }).$client.query<Row, SQLQueryBindings[]>(text) as unknown as Statement;
  });
}

function rawOnPostgres(client: PostgresClient, text: string) {
  return {
    get: async (...params: unknown[]) => (await client.unsafe(text, params))[0] ?? null,
    all: async (...params: unknown[]) => await client.unsafe(text, params),
    values: (...params: unknown[]) => client.unsafe(text, params).values(),
    run: async (...params: unknown[]) => ({ changes: (await client.unsafe(text, params)).count }),
  };
}
