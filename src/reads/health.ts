import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";
import { diskSpaceOf } from "../db/diskSpace";
import { databaseFilePath } from "../db/serverStatus";
import { read } from "../db/transaction";

export type Health = { ok: true; warning?: string } | { ok: false; reason: string };

/** Free space below which the check warns (PARLEY_DISK_LOW_MB), while still answering healthy. */
let diskLowBytes = 512 * 2 ** 20;

export function configureHealth(settings: { diskLowMegabytes: number }) {
  diskLowBytes = settings.diskLowMegabytes * 2 ** 20;
}

/** The data directory's disk as GET /server/status shows it. */
export function dataDiskFigures(dataDir: string): { free_bytes: number; size_bytes: number; full: boolean; low: boolean } {
  const space = diskSpaceOf(dataDir);
  return { free_bytes: space.freeBytes, size_bytes: space.totalBytes, full: space.full, low: space.freeBytes < diskLowBytes };
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 1 : 0)} MB`;

/**
 * GET /health and `parley health`: whether this process can still serve its data. Cheap enough
 * for a probe every few seconds: one query (which proves the connection is open and answers),
 * then two file-system checks for failures SQLite itself does not notice at once: the data
 * directory deleted or unmounted under a running server (SQLite keeps reading and writing the
 * deleted file, and everything written from then on is lost at the next start), and a data
 * directory that became read-only (a file system remounted read-only after errors). Last, the
 * free space: a full disk makes every change fail (unhealthy), and little space left is a
 * warning while the server is still healthy, so that someone can act before it fills up.
 */
export async function checkHealth(): Promise<Health> {
  let file: string;
  try {
    file = await read((db) => databaseFilePath(db));
  } catch (error) {
    return { ok: false, reason: `The database does not answer: ${(error as Error)?.message ?? String(error)}` };
  }
  if (!existsSync(file)) {
    return { ok: false, reason: `The database file ${file} is gone (its data directory was deleted, moved or unmounted); what is written now will be lost. Restore the data directory and restart.` };
  }
  try {
    accessSync(dirname(file), constants.W_OK);
  } catch {
    return { ok: false, reason: `The data directory ${dirname(file)} is not writable.` };
  }
  const space = diskSpaceOf(dirname(file));
  if (space.full) {
    return { ok: false, reason: `The disk holding the data directory ${dirname(file)} is full (${megabytes(space.freeBytes)} free): changes are refused until space is freed.` };
  }
  if (space.freeBytes < diskLowBytes) {
    return { ok: true, warning: `Only ${megabytes(space.freeBytes)} free on the disk holding the data directory ${dirname(file)} (below PARLEY_DISK_LOW_MB, ${megabytes(diskLowBytes)}): free some space before it fills up.` };
  }
  return { ok: true };
}
