import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { recordBackupRun } from "../actions/backupRuns";
import { DATABASE_FILE } from "../db/dataDir";
import { diskSpaceOf } from "../db/diskSpace";
import { storedFilesIn } from "../db/fileStore";
import { log } from "../log";
import { createBackup } from "./create";

/**
 * One scheduled backup (jobs/backups.ts runs it): a new archive in the backup directory, then the
 * oldest ones beyond `keep` deleted. Only archives this job names are ever deleted, and only
 * after a new one was written whole.
 */

const ARCHIVE = /^parley-backup-\d{4}-\d{2}-\d{2}T\d{6}Z\.tar\.gz$/;

export async function runScheduledBackup(dataDir: string, backupDir: string, keep: number): Promise<string | null> {
  const startedAt = Math.floor(Date.now() / 1000);
  const failed = async (error: string) => {
    log.error(`Scheduled backup ${error}`);
    await recordBackupRun({ startedAt, finishedAt: Math.floor(Date.now() / 1000), file: null, bytes: null, error });
    return null;
  };
  try {
    mkdirSync(backupDir, { recursive: true });
  } catch (error) {
    return failed(`failed: cannot use the backup directory ${backupDir}: ${(error as Error).message}`);
  }
  const needed = bytesToBackUp(dataDir);
  const free = freeBytes(backupDir);
  // A backup that fills the disk would stop the server writing messages: skip it and say so.
  if (free !== null && free < needed * 1.1 + 64 * 1024 * 1024) {
    return failed(`skipped: ${backupDir} has ${mb(free)} free and the backup may need ${mb(needed)}. Free some space or set PARLEY_BACKUP_DIR to a bigger disk.`);
  }
  const started = performance.now();
  let result;
  try {
    result = await createBackup(dataDir, backupDir);
  } catch (error) {
    return failed(`failed: ${(error as Error).message}`);
  }
  await recordBackupRun({ startedAt, finishedAt: Math.floor(Date.now() / 1000), file: result.file, bytes: result.bytes, error: null });
  log.info(`Scheduled backup written: ${result.file} (${mb(result.bytes)}, ${result.manifest.counts.messages} messages, ${Math.round(performance.now() - started)} ms)`);
  const archives = readdirSync(backupDir).filter((name) => ARCHIVE.test(name)).sort();
  for (const name of archives.slice(0, Math.max(0, archives.length - keep))) rmSync(join(backupDir, name), { force: true });
  // Half-written archives of a process stopped during a backup.
  for (const name of readdirSync(backupDir)) if (name.startsWith(".parley-backup-") && name.endsWith(".partial")) rmSync(join(backupDir, name), { force: true });
  return result.file;
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** At most the database plus every stored file: the archive is compressed, so usually much less. */
function bytesToBackUp(dataDir: string): number {
  return storedFilesIn(join(dataDir, "files")).reduce((total, file) => total + statSync(file.path).size, statSync(join(dataDir, DATABASE_FILE)).size);
}

function freeBytes(directory: string): number | null {
  try {
    return diskSpaceOf(directory).freeBytes;
  } catch {
    return null;
  }
}
