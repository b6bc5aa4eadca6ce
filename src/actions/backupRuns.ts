import { insertBackupRun, type BackupRun } from "../db/backupRuns";
import { write } from "../db/transaction";

/** Remembers how a scheduled backup went (backup/scheduled.ts). No event: only admins read it, on request. */
export async function recordBackupRun(run: Omit<BackupRun, "id">) {
  await write((tx) => insertBackupRun(tx, run));
}
