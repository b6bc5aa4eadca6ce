import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";
import { dialect } from "../db/dialect";
import { diskSpaceOf } from "../db/diskSpace";
import { databaseFilePath, pingDatabase } from "../db/serverStatus";
import { read } from "../db/transaction";
import type { Reader } from "../db/types";

export type Health = { ok: true; warning?: string } | { ok: false; reason: string };

/** Free space below which the check warns (PARLEY_DISK_LOW_MB), while still answering healthy. */
let diskLowBytes = 512 * 2 ** 20;

/** The configured data directory (PARLEY_DATA_DIR), for a database on PostgreSQL: it holds no database file. */
let configuredDataDir: string | null = null;

export function configureHealth(settings: { diskLowMegabytes: number; dataDir: string }) {
  diskLowBytes = settings.diskLowMegabytes * 2 ** 20;
  configuredDataDir = settings.dataDir;
}

/**
 * The data directory: SQLite's database file's folder; with the database on PostgreSQL, the
 * configured one, which still holds the uploads (unless PARLEY_FILES_DIR) and the event queues.
 */
export function dataDirOf(db: Reader): string {
  if (dialect() !== "postgres") return dirname(databaseFilePath(db));
  if (configuredDataDir === null) throw new Error("The data directory is asked for before configureHealth");
  return configuredDataDir;
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
  let file: string | null;
  let dataDir: string;
  try {
    ({ file, dataDir } = await read(async (db) => {
      if (dialect() === "postgres") {
        await pingDatabase(db);
        return { file: null, dataDir: dataDirOf(db) };
      }
      const file = databaseFilePath(db);
      return { file, dataDir: dirname(file) };
    }));
  } catch (error) {
    return { ok: false, reason: `The database does not answer: ${(error as Error)?.message ?? String(error)}` };
  }
  if (file !== null && !existsSync(file)) {
    return { ok: false, reason: `The database file ${file} is gone (its data directory was deleted, moved or unmounted); what is written now will be lost. Restore the data directory and restart.` };
  }
  if (file === null && !existsSync(dataDir)) {
    return { ok: false, reason: `The data directory ${dataDir} is gone (deleted, moved or unmounted). Restore it and restart.` };
  }
  try {
    accessSync(dataDir, constants.W_OK);
  } catch {
    return { ok: false, reason: `The data directory ${dataDir} is not writable.` };
  }
  const space = diskSpaceOf(dataDir);
  if (space.full) {
    return { ok: false, reason: `The disk holding the data directory ${dataDir} is full (${megabytes(space.freeBytes)} free): changes are refused until space is freed.` };
  }
  if (space.freeBytes < diskLowBytes) {
    return { ok: true, warning: `Only ${megabytes(space.freeBytes)} free on the disk holding the data directory ${dataDir} (below PARLEY_DISK_LOW_MB, ${megabytes(diskLowBytes)}): free some space before it fills up.` };
  }
  return { ok: true };
}
