import { desc, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { backupRuns } from "./tables";

export type BackupRun = typeof backupRuns.$inferSelect;

/** Runs remembered: enough to see a pattern, never a table that grows for years. */
const KEPT_RUNS = 100;

export async function insertBackupRun(tx: Tx, run: Omit<BackupRun, "id">) {
  const { id } = (await tx.insert(backupRuns).values(run).returning({ id: backupRuns.id }))[0];
  await tx.delete(backupRuns).where(lt(backupRuns.id, id - KEPT_RUNS + 1));
}

export interface BackupRunSummary {
  lastSuccess: BackupRun | null;
  lastFailure: BackupRun | null;
  failures: number;
}

export async function backupRunSummary(db: Reader): Promise<BackupRunSummary> {
  const latest = async (succeeded: boolean) =>
    (await db
      .select()
      .from(backupRuns)
      .where(succeeded ? isNull(backupRuns.error) : isNotNull(backupRuns.error))
      .orderBy(desc(backupRuns.id))
      .limit(1))[0] ?? null;
  const failures = (await db.select({ n: sql<number>`count(*)` }).from(backupRuns).where(isNotNull(backupRuns.error)))[0]!.n;
  return { lastSuccess: await latest(true), lastFailure: await latest(false), failures };
}
