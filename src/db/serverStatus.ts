import { statSync } from "node:fs";
import { and, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { dialect } from "./dialect";
import { totalOf } from "./dialectSql";
import { sqlRows } from "./rawSql";
import type { Reader } from "./types";
import { attachments, channels, messages, outbox, users } from "./tables";

/** What databaseFilePath asks of SQLite's connection (synchronous, which rawSql's helpers are not). */
interface SqliteConnection {
  all<Row>(query: SQL): Row[];
}

/** What the server holds, for the server status page (reads/serverStatus.ts). */

/**
 * The database file's path, as SQLite opened it (the data dir is its folder). Synchronous:
 * db/checkpoints.ts asks it of the bare write connection as the server starts. SQLite's alone:
 * a database on PostgreSQL is no file of ours.
 */
export function databaseFilePath(db: Reader): string {
  if (dialect() === "postgres") throw new Error("A database on PostgreSQL has no file");
  const main = (db as unknown as SqliteConnection).all<{ name: string; file: string }>(sql`PRAGMA database_list`).find((entry) => entry.name === "main");
  if (!main?.file) throw new Error("The database has no file");
  return main.file;
}

const sizeOf = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    // The WAL file is absent between a checkpoint that truncated it and the next write.
    return 0;
  }
};

/** Where the data is kept, and how much of it there is. */
export interface DatabaseFigures {
  store: "sqlite" | "postgresql";
  /** SQLite: the database file and its write-ahead log. PostgreSQL: the database as the server counts it (pg_database_size). */
  sizeBytes: number;
  /**
   * SQLite's write-ahead log (not yet checkpointed into the file; counted in sizeBytes too).
   * Null on PostgreSQL: its write-ahead log is the PostgreSQL server's, shared by all its databases.
   */
  walBytes: number | null;
}

/** The database's bytes on disk (see DatabaseFigures). */
export async function databaseFigures(db: Reader): Promise<DatabaseFigures> {
  if (dialect() === "postgres") {
    const [row] = await sqlRows<{ size: number }>(db, sql`SELECT pg_database_size(current_database()) AS size`);
    return { store: "postgresql", sizeBytes: row!.size, walBytes: null };
  }
  const path = databaseFilePath(db);
  const walBytes = sizeOf(`${path}-wal`);
  return { store: "sqlite", sizeBytes: sizeOf(path) + walBytes, walBytes };
}

/** A query that proves the connection is open and the database answers (GET /health). */
export async function pingDatabase(db: Reader): Promise<void> {
  await sqlRows(db, sql`SELECT 1 AS one`);
}

const count = async (db: Reader, table: SQLiteTable, where?: SQL) => (await db.select({ n: sql<number>`count(*)` }).from(table).where(where))[0]!.n;

export interface StoredCounts {
  /** Active human accounts. */
  users: number;
  /** Active bots, leaving out the built-in ones (the notification bot). */
  bots: number;
  /** Channels not archived. */
  channels: number;
  messages: number;
  uploadFiles: number;
  /** As uploaded: the same bytes uploaded twice count twice, though stored once. */
  uploadBytes: number;
  /** Outbox items the sender gave up on, kept for 30 days after. */
  outboxGivenUp: number;
}

export async function countStored(db: Reader): Promise<StoredCounts> {
  const uploads = (await db.select({ files: sql<number>`count(*)`, bytes: totalOf(attachments.size) }).from(attachments))[0]!;
  return {
    users: await count(db, users, and(eq(users.isActive, true), eq(users.isBot, false))),
    bots: await count(db, users, and(eq(users.isActive, true), eq(users.isBot, true), eq(users.isSystemBot, false))),
    channels: await count(db, channels, eq(channels.isArchived, false)),
    messages: await count(db, messages),
    uploadFiles: uploads.files,
    uploadBytes: uploads.bytes,
    outboxGivenUp: await count(db, outbox, isNotNull(outbox.gaveUpAt)),
  };
}
