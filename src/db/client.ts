import { Database, type Statement } from "bun:sqlite";
import { accessSync, constants, mkdirSync } from "node:fs";
import { join } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { applyMigrations } from "./migrate";
import { databaseSwitched } from "./generation";
import { usePreparedQueriesOn } from "./prepared";
import * as schema from "./schema";

export type Db = BunSQLiteDatabase<typeof schema>;

export class DataDirError extends Error {}

let current: { sqlite: Database; db: Db } | null = null;

export const DATABASE_FILE = "parley.db";

/** Opens (creating if needed) the data dir's database and brings its schema up to date. */
export function openDatabase(dataDir: string): Db {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
  } catch (error) {
    throw new DataDirError(`Cannot use data directory ${dataDir}: ${(error as Error).message}`);
  }
  let sqlite: Database;
  try {
    sqlite = new Database(join(dataDir, DATABASE_FILE), { create: true, strict: true });
    sqlite.run("PRAGMA journal_mode = WAL");
  } catch (error) {
    throw new DataDirError(`Cannot open the database in ${dataDir}: ${(error as Error).message}`);
  }
  // NORMAL in WAL mode loses no committed transaction on a process crash, only possibly the
  // last ones on power loss, and saves an fsync per commit.
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA foreign_keys = ON");
  sqlite.run("PRAGMA busy_timeout = 5000");
  reuseStatements(sqlite);
  try {
    applyMigrations(sqlite);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  current = { sqlite, db: drizzle({ client: sqlite, schema }) };
  usePreparedQueriesOn(current.db);
  databaseSwitched();
  return current.db;
}

/**
 * drizzle asks SQLite to compile every query anew, and compiling costs far more than running
 * our typical single-row query (measured: ~440 µs against ~27 µs for a user lookup on a busy
 * machine). Same SQL text, same compiled statement: keep the most recent ones. Evicted
 * statements are only dropped, never finalized, since a long-lived drizzle `.prepare()` may
 * still hold one; the garbage collector frees them.
 */
function reuseStatements(sqlite: Database, capacity = 1000) {
  const compiled = new Map<string, Statement>();
  const compile = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((sql: string, ...rest: unknown[]) => {
    if (rest.length > 0) return (compile as (...args: unknown[]) => Statement)(sql, ...rest);
    let statement = compiled.get(sql);
    if (statement) {
      compiled.delete(sql);
    } else {
      statement = compile(sql);
      if (compiled.size >= capacity) compiled.delete(compiled.keys().next().value as string);
    }
    compiled.set(sql, statement);
    return statement;
  }) as typeof sqlite.prepare;
}

export function database(): Db {
  if (!current) throw new Error("The database is not open");
  return current.db;
}

export function closeDatabase() {
  if (!current) return;
  current.sqlite.run("PRAGMA optimize");
  current.sqlite.close();
  current = null;
  usePreparedQueriesOn(null);
  databaseSwitched();
}
