import { Database } from "bun:sqlite";
import { accessSync, constants, mkdirSync } from "node:fs";
import { join } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { applyMigrations } from "./migrate";
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
  try {
    applyMigrations(sqlite);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  current = { sqlite, db: drizzle({ client: sqlite, schema }) };
  return current.db;
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
}
