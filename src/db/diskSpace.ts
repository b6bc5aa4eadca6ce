import { statfsSync } from "node:fs";
import { log } from "../log";

/**
 * Running out of disk space. SQLite refuses a transaction it cannot write (SQLITE_FULL) and
 * rolls it back, and a file that cannot be written fails with ENOSPC, so nothing acknowledged
 * is lost and everything works again once space is freed. What this module adds is that it
 * is seen: requests are told the disk is full (http/ turns the failure into DISK_FULL), /health
 * says so, and the log says it once per episode rather than once per refused request.
 */

/** When the first write failed for lack of space since the disk had room again; null while writes work. */
let failingSince: number | null = null;
/** The data directory whose disk the writes go to (set when the database opens). */
let watchedDir: string | null = null;

export function watchDiskOf(dataDir: string | null) {
  watchedDir = dataDir;
  failingSince = null;
}

/** Below this much free space the data's disk counts as full, whatever the writes say. */
const FULL_BELOW_BYTES = 1 << 20;
/** After a write failed for lack of space, the disk counts as full until at least this much is free. */
const ROOM_AGAIN_BYTES = 16 << 20;

export function isDiskFullError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT";
}

/** Notes a failed write; true when it failed for lack of space (logged at the first of a run). */
export function noteWriteFailure(error: unknown): boolean {
  if (!isDiskFullError(error)) return false;
  if (failingSince === null) {
    failingSince = Date.now();
    log.error("The disk holding the data directory is full: changes are refused (DISK_FULL) until space is freed. Nothing already stored is lost; free some space and Parley goes on by itself.");
  }
  return true;
}

/**
 * Called after every committed write: the first one after a run of failures ends it, once the
 * disk has room again. A small write can still fit in what is left of a full disk; ending the
 * episode on it would have the next refusal log it all again.
 */
export function noteWriteSucceeded() {
  if (failingSince === null) return;
  if (watchedDir !== null && statfsFree(watchedDir) < ROOM_AGAIN_BYTES) return;
  const seconds = Math.round((Date.now() - failingSince) / 1000);
  failingSince = null;
  log.warn(`The disk holding the data directory has room again: changes are accepted again (they were refused for ${seconds} s).`);
}

export interface DiskSpace {
  freeBytes: number;
  totalBytes: number;
  /** Writes fail or are about to: too little left for SQLite to commit. */
  full: boolean;
}

function statfsFree(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}

/** The free space on the file system holding `dir`, as an unprivileged process may use it. */
export function diskSpaceOf(dir: string): DiskSpace {
  const stats = statfsSync(dir);
  const freeBytes = stats.bavail * stats.bsize;
  const full = freeBytes < FULL_BELOW_BYTES || (failingSince !== null && freeBytes < ROOM_AGAIN_BYTES);
  return { freeBytes, totalBytes: stats.blocks * stats.bsize, full };
}
