import { SQL } from "bun";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { drizzle } from "drizzle-orm/bun-sql";
import { SERVER_VERSION } from "../version";
import { adoptConnections, writeConnection, type Db, DataDirError, type OpenedDatabase, type OpenOptions } from "./client";
import type { Created } from "./dataDir";
import { useDialect } from "./dialect";
import { type LeadershipPool, releaseLeaderships, useLeadershipPool } from "./leadership";
import { useFileStoreIn } from "./fileStore";
import { newerSchemaProblem, NewerDatabaseError, UpgradeFailedError, type AppliedMigration } from "./migrate";
import { POSTGRES_MIGRATIONS } from "./migrations.generated";
import { type PostgresClient, withNumbers } from "./postgresConnection";
import * as postgresTables from "./postgres/tables";
import { useTablesOf } from "./tables";

/**
 * Parley's database on a PostgreSQL server (PARLEY_DATABASE_URL), for several nodes sharing
 * one. The rest of db/ sees the same two connections as on SQLite (db/client.ts): one that
 * writes, one transaction at a time, and one that reads, each a connection of its own reserved
 * from Bun's client for the process's life, so a transaction's statements all run on it. Across
 * nodes, writes take turns too: each write transaction takes one advisory lock first
 * (db/transaction.ts), so every rule written for one writer still holds.
 *
 * The data directory still holds what is not in the database: uploaded files (PARLEY_FILES_DIR
 * where the nodes share a directory), saved event queues, backups.
 */

const BREAKPOINT = "--> statement-breakpoint";

/** The advisory lock migrations run under, so nodes starting together migrate once. */
const MIGRATION_LOCK = 7_256_001;

export async function openPostgresDatabase(url: string, dataDir: string, options: OpenOptions & { filesDir?: string | null } = {}): Promise<OpenedDatabase> {
  dataDir = resolve(dataDir);
  // Two connections reserved for the process's life (writes, reads), and one for holding a
  // lock while this node runs a one-at-a-time job (db/leadership.ts).
  const pool = new SQL({ url, bigint: true, max: 3, idleTimeout: 0, connectionTimeout: 10 });
  let writer: PostgresClient | undefined;
  let reader: PostgresClient | undefined;
  // The pool waits for reserved connections to be released before it closes.
  const closePool = async () => {
    for (const reserved of [writer, reader]) (reserved as unknown as { release?: () => void } | undefined)?.release?.();
    await pool.close({ timeout: 5 });
  };
  try {
    writer = withNumbers((await pool.reserve()) as unknown as PostgresClient);
    reader = withNumbers((await pool.reserve()) as unknown as PostgresClient);
  } catch (error) {
    await closePool().catch(() => {});
    throw new DataDirError(`Cannot connect to the PostgreSQL database at ${redacted(url)}: ${(error as Error).message}`);
  }
  let created: Created = null;
  let upgrade: OpenedDatabase["upgrade"];
  try {
    const applied = await migrate(writer, options.newInstall ?? "allow", url);
    if (applied.fresh) created = "database";
    else if (applied.migrations.length > 0) upgrade = { backup: "", migrations: applied.migrations };
  } catch (error) {
    await closePool().catch(() => {});
    throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  useDialect("postgres");
  useTablesOf("postgres");
  const connect = (client: PostgresClient) => drizzle({ client: client as never, schema: postgresTables }) as unknown as Db;
  useLeadershipPool(pool as unknown as LeadershipPool);
  adoptConnections({ writer: connect(writer), reader: connect(reader) }, async () => {
    await releaseLeaderships();
    useLeadershipPool(null);
    await closePool();
    useDialect("sqlite");
    useTablesOf("sqlite");
  });
  useFileStoreIn(dataDir, options.filesDir);
  return { db: writeConnection(), created, upgrade };
}

/** The URL without its password, for messages. */
export function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unreadable URL)";
  }
}

/**
 * Applies PostgreSQL's pending migrations in one transaction, under an advisory lock (the first
 * node to start migrates; the others wait, then find nothing to do). PostgreSQL's DDL is
 * transactional: a migration that fails leaves the database as it was.
 */
async function migrate(client: PostgresClient, newInstall: "allow" | "refuse", url: string): Promise<{ fresh: boolean; migrations: string[] }> {
  await client.unsafe("BEGIN");
  try {
    await client.unsafe(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    const [{ exists }] = (await client.unsafe("SELECT to_regclass('parley_migrations') IS NOT NULL AS exists")) as unknown as Array<{ exists: boolean }>;
    const applied: AppliedMigration[] = exists ? ((await client.unsafe('SELECT tag, parley_version AS "parleyVersion" FROM parley_migrations ORDER BY tag')) as unknown as AppliedMigration[]) : [];
    if (!exists) {
      const [{ tables }] = (await client.unsafe("SELECT count(*) AS tables FROM information_schema.tables WHERE table_schema = current_schema()")) as unknown as Array<{ tables: number }>;
      if (tables > 0) throw new DataDirError(`The PostgreSQL database at ${redacted(url)} holds tables but none of Parley's: it is some other program's. Give Parley an empty database of its own (createdb).`);
      if (newInstall === "refuse") {
        throw new DataDirError(`The PostgreSQL database at ${redacted(url)} is empty. To make a new organization there, run 'parley init' (or 'parley serve --init') with the same PARLEY_DATABASE_URL; to move an existing server there, use 'parley migrate-to-postgres'.`);
      }
      await client.unsafe("CREATE TABLE parley_migrations (tag text PRIMARY KEY, applied_at bigint NOT NULL, parley_version text)");
    }
    const problem = newerSchemaProblem(applied, "This database", POSTGRES_MIGRATIONS.map((migration) => migration.tag));
    if (problem) throw new NewerDatabaseError(problem);
    const done = new Set(applied.map((migration) => migration.tag));
    const pending = POSTGRES_MIGRATIONS.filter((migration) => !done.has(migration.tag));
    const now = Math.floor(Date.now() / 1000);
    for (const migration of pending) {
      try {
        for (const statement of migration.sql.split(BREAKPOINT)) if (statement.trim() !== "") await client.unsafe(statement);
      } catch (error) {
        throw new UpgradeFailedError(
          `Upgrading the database for ${SERVER_VERSION} failed at migration ${migration.tag}: ${(error as Error).message}. Nothing was changed: the upgrade runs in one transaction. Please report this.`,
        );
      }
      await client.unsafe("INSERT INTO parley_migrations (tag, applied_at, parley_version) VALUES ($1, $2, $3)", [migration.tag, now, SERVER_VERSION]);
    }
    await client.unsafe("COMMIT");
    return { fresh: !exists, migrations: pending.map((migration) => migration.tag) };
  } catch (error) {
    await client.unsafe("ROLLBACK").then(
      () => {},
      () => {},
    );
    throw error;
  }
}
