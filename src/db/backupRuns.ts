import { desc, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Reader, Tx } from "./types";

/**
 * The outcome of each scheduled backup, so an admin can see (server status, /metrics) that
 * backups are still being made: a failure at 03:00 is otherwise only a log line nobody reads.
 */
export const backupRuns = sqliteTable("backup_runs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** UNIX seconds. */
  startedAt: integer("started_at").notNull(),
  finishedAt: integer("finished_at").notNull(),
  /** The archive written; null when the run failed or was skipped. */
  file: text("file"),
  bytes: integer("bytes"),
  /** Why it failed or was skipped; null on success. */
  error: text("error"),
});

export type BackupRun = typeof backupRuns.$inferSelect;

/** Runs remembered: enough to see a pattern, never a table that grows for years. */
const KEPT_RUNS = 100;

export async function insertBackupRun(tx: Tx, run: Omit<BackupRun, "id">) {
  const { id } = tx.insert(backupRuns).values(run).returning({ id: backupRuns.id }).get();
  tx.delete(backupRuns).where(lt(backupRuns.id, id - KEPT_RUNS + 1)).run();
}

export interface BackupRunSummary {
  lastSuccess: BackupRun | null;
  lastFailure: BackupRun | null;
  failures: number;
}

export async function backupRunSummary(db: Reader): Promise<BackupRunSummary> {
  const latest = async (succeeded: boolean) =>
    db
      .select()
      .from(backupRuns)
      .where(succeeded ? isNull(backupRuns.error) : isNotNull(backupRuns.error))
      .orderBy(desc(backupRuns.id))
      .limit(1)
      .get() ?? null;
  const failures = db.select({ n: sql<number>`count(*)` }).from(backupRuns).where(isNotNull(backupRuns.error)).get()!.n;
  return { lastSuccess: await latest(true), lastFailure: await latest(false), failures };
}
