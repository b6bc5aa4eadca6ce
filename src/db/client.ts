import { Database, type Statement } from "bun:sqlite";
import { join, resolve } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { DATABASE_FILE, DataDirError, prepareDataDir, readOnlyMessage, restoreAdvice, type Created, type NewInstall } from "./dataDir";
import { watchDiskOf } from "./diskSpace";
import { useFileStoreIn } from "./fileStore";
import { applyMigrations } from "./migrate";
import { backUpBeforeUpgrade } from "./upgradeBackup";
import { databaseSwitched } from "./caches";
import * as schema from "./schema";

export { DATABASE_FILE, DataDirError } from "./dataDir";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

/**
 * The two connections to the database file: writes run on one, one transaction at a time
 * (db/transaction.ts); reads on the other, which in WAL mode reads the last commit while a
 * write is open, so it never sees what that write has not committed.
 */
let current: { writer: Db; reader: Db } | null = null;
/** How the open database is closed: SQLite's files, or PostgreSQL's connections (db/postgresClient.ts). */
let closeCurrent: (() => void | Promise<void>) | null = null;

/**
 * The PostgreSQL client hands its two connections over here, so that the rest of db/ finds them
 * where it finds SQLite's.
 */
export function adoptConnections(connections: { writer: Db; reader: Db }, close: () => Promise<void>) {
  if (current) throw new Error("A database is open already");
  current = connections;
  closeCurrent = close;
  databaseSwitched(current.writer);
}

export interface OpenOptions {
  /**
   * Whether a missing directory, or one without a database, may become a new install. The
   * commands say "refuse" unless the operator asked for a new server (`serve --init`, `init`);
   * the default suits tests and benchmarks, which open directories they just made.
   */
  newInstall?: NewInstall;
}

export interface OpenedDatabase {
  db: Db;
  /** What was made for it: nothing, a new database file, or the data directory as well. */
  created: Created;
  /** Set when this start upgraded the schema: the copy of the database taken first, and the migrations applied. */
  upgrade?: { backup: string; migrations: string[] };
}

/**
 * Opens the data dir's database and brings its schema up to date, after checking that it is
 * there (or may be created), writable, and undamaged: a server that starts is one that can
 * serve. Throws DataDirError, saying what is wrong and what to do, otherwise.
 */
export function openDatabase(dataDir: string, options: OpenOptions = {}): OpenedDatabase {
  dataDir = resolve(dataDir);
  const created = prepareDataDir(dataDir, options.newInstall ?? "allow");
  const path = join(dataDir, DATABASE_FILE);
  let sqlite: Database | undefined;
  let upgrade: OpenedDatabase["upgrade"];
  try {
    sqlite = new Database(path, { create: created !== null, strict: true });
    sqlite.run("PRAGMA busy_timeout = 5000");
    // The first statement to read the file: it fails here on a file that is not a database.
    sqlite.run("PRAGMA journal_mode = WAL");
    requireWritableConnection(sqlite);
    if (created === null) requireIntactDatabase(sqlite, dataDir);
    // NORMAL in WAL mode loses no committed transaction on a process crash, only possibly the
    // last ones on power loss, and saves an fsync per commit.
    sqlite.run("PRAGMA synchronous = NORMAL");
    sqlite.run("PRAGMA foreign_keys = ON");
    reuseStatements(sqlite);
    applyMigrations(sqlite, { beforeUpgrade: (pending) => (upgrade = { backup: backUpBeforeUpgrade(sqlite!, dataDir), migrations: pending }) });
  } catch (error) {
    sqlite?.close();
    throw explainOpenFailure(error, dataDir);
  }
  current = { writer: drizzle({ client: sqlite, schema }), reader: drizzle({ client: openReadConnection(path), schema }) };
  const { writer, reader } = current;
  closeCurrent = () => {
    reader.$client.close();
    writer.$client.run("PRAGMA optimize");
    writer.$client.close();
  };
  useFileStoreIn(dataDir);
  watchDiskOf(dataDir);
  databaseSwitched(current.writer);
  return { db: current.writer, created, upgrade };
}

/** The read connection: it refuses to write, so a write that strays into read() fails loudly. */
function openReadConnection(path: string): Database {
  const sqlite = new Database(path, { strict: true });
  sqlite.run("PRAGMA busy_timeout = 5000");
  sqlite.run("PRAGMA query_only = ON");
  reuseStatements(sqlite);
  return sqlite;
}

/**
 * SQLite opens a file it may not write read-only without a word, and every write then fails.
 * Permission checks miss cases (root, some mounts), so a write is tried: a table made in a
 * transaction that is rolled back.
 */
function requireWritableConnection(sqlite: Database) {
  sqlite.run("BEGIN IMMEDIATE");
  try {
    sqlite.run("CREATE TABLE parley_write_check (x INTEGER)");
  } finally {
    sqlite.run("ROLLBACK");
  }
}

/**
 * SQLite's quick_check reads every page and checks each b-tree's structure (not that indexes
 * match their tables, which would take far longer): damage anywhere in the file is found at
 * start, not by the first query that happens to read it.
 */
function requireIntactDatabase(sqlite: Database, dataDir: string) {
  const problems = sqlite
    .query<Record<string, string>, []>("PRAGMA quick_check(5)")
    .all()
    .map((row) => Object.values(row)[0]);
  if (problems.length === 1 && problems[0] === "ok") return;
  throw damaged(dataDir, problems.join("; "));
}

const damaged = (dataDir: string, what: string) =>
  new DataDirError(
    `The database ${join(dataDir, DATABASE_FILE)} is damaged (SQLite says: ${what}). Parley will not serve it: every change written to a damaged file can spread the damage.
${restoreAdvice(dataDir)}`,
  );

function explainOpenFailure(error: unknown, dataDir: string): Error {
  if (!(error instanceof Error) || error instanceof DataDirError) return error as Error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string" || !code.startsWith("SQLITE_")) return error;
  const path = join(dataDir, DATABASE_FILE);
  if (code === "SQLITE_NOTADB") {
    return new DataDirError(`The file ${path} is not a SQLite database (SQLite says: ${error.message}), so it is not Parley's data, or it was overwritten.
${restoreAdvice(dataDir)}`);
  }
  if (code.startsWith("SQLITE_CORRUPT")) return damaged(dataDir, error.message);
  if (code === "SQLITE_READONLY_DIRECTORY") return new DataDirError(readOnlyMessage(dataDir, "directory"));
  if (code.startsWith("SQLITE_READONLY")) return new DataDirError(readOnlyMessage(path, "database"));
  return new DataDirError(`Cannot open the database in ${dataDir}: ${error.message}`);
}

/** Statements with more parameters than this are not kept for reuse (see reuseStatements). */
const MAX_REUSED_STATEMENT_PARAMETERS = 100;

/**
 * drizzle asks SQLite to compile every query anew, and compiling costs far more than running
 * our typical single-row query (measured: ~440 µs against ~27 µs for a user lookup on a busy
 * machine). Same SQL text, same compiled statement: keep the most recent ones. Evicted
 * statements are only dropped, never finalized, since a long-lived drizzle `.prepare()` may
 * still hold one; the garbage collector frees them.
 *
 * A list a request sends (`IN (?, ?, ...)` over its message IDs) gives a new text for each
 * length, and a compiled statement grows with its parameters: ~8 KB with a few, ~95 KB with
 * 500, 3 MB with 20,000. Such statements are compiled for the one call and not kept (it costs
 * ~60 µs for 500), or a client sending lists of every length would fill the cache with them.
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
      if (statement.paramsCount > MAX_REUSED_STATEMENT_PARAMETERS) return statement;
      if (compiled.size >= capacity) compiled.delete(compiled.keys().next().value as string);
    }
    compiled.set(sql, statement);
    return statement;
  }) as typeof sqlite.prepare;
}

/** The write connection. Only db/transaction.ts runs statements on it while the server serves. */
export function writeConnection(): Db {
  if (!current) throw new Error("The database is not open");
  return current.writer;
}

/** The read connection, for read() and for reads outside any transaction. */
export function readConnection(): Db {
  if (!current) throw new Error("The database is not open");
  return current.reader;
}

/** Closes the open database (nothing when none is): at once for SQLite, after its connections close for PostgreSQL. */
export function closeDatabase(): void | Promise<void> {
  if (!current) return;
  const close = closeCurrent!;
  current = null;
  closeCurrent = null;
  databaseSwitched(null);
  return close();
}
