import { randomUUID } from "node:crypto";
import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import * as tar from "tar";
import { copyDatabase } from "../db/backup";
import { DATABASE_FILE, fileNameTime } from "../db/dataDir";
import { storedFilesIn } from "../db/fileStore";
import { inspectDatabaseFile } from "../db/databaseFile";
import { SERVER_VERSION } from "../version";
import { ARCHIVE_FORMAT, BackupError, MANIFEST_FILE, type BackupManifest } from "./manifest";

/**
 * A backup archive of a data directory: a gzipped tar holding the manifest, a consistent copy of
 * the database (db/backup.ts: VACUUM INTO, never a file copy of a WAL database), the saved event
 * queues when the server is stopped, and the uploaded files. It can be made while the server runs,
 * and opened with any tar (`tar xzf`) as well as with `parley restore`.
 *
 * Uploaded files are named by their hash and never change, and a row is written only after its
 * file is on disk (db/fileStore.ts): every file the database copy points at exists when the copy
 * is taken. Files come after the copy, so each one it points at is there unless deleted since.
 */

const QUEUES_FILE = "event_queues.json";
const FILES_DIR = "files";
/** A staging directory in the data dir (where there is room for a copy of the database). */
const STAGING_PREFIX = ".parley-archive-";
/** Read in 1 MB pieces: tar's default of 16 MB per read, queued ahead of gzip, cost 100 MB of memory. */
const READ_BYTES = 1 << 20;

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: BackupManifest;
  /** Files the database points at that were deleted between the copy and the archiving. */
  missingFiles: string[];
}

/** `parley-backup-2026-11-25T030000Z.tar.gz`: UTC, no colons (some systems refuse them in names). */
export const archiveName = (at: Date) => `parley-backup-${fileNameTime(at)}.tar.gz`;

/**
 * Writes the archive to `out` (a file that must not exist, or a directory to put a dated one in).
 * It is written under a temporary name, flushed and renamed: a file with the final name is whole.
 */
export async function createBackup(dataDirArg: string, out: string): Promise<BackupResult> {
  const dataDir = resolve(dataDirArg);
  const database = join(dataDir, DATABASE_FILE);
  if (!existsSync(database)) throw new BackupError(`There is no database to back up: ${database} does not exist. Check --data-dir or PARLEY_DATA_DIR.`);
  const takenAt = new Date();
  let file = resolve(out);
  // "--out /backups/" names a directory even before it exists.
  if (/[/\\]$/.test(out)) mkdirSync(file, { recursive: true });
  if (isDirectory(file)) file = join(file, archiveName(takenAt));
  if (existsSync(file)) throw new BackupError(`${file} already exists; Parley does not overwrite a backup. Choose another name, or give a directory to put a dated file in.`);
  if (!isDirectory(dirname(file))) throw new BackupError(`Cannot write ${file}: the directory ${dirname(file)} does not exist.`);

  removeLeftovers(dataDir);
  const staging = join(dataDir, `${STAGING_PREFIX}${process.pid}-${randomUUID()}`);
  const partial = join(dirname(file), `.${basename(file)}.partial`);
  try {
    mkdirSync(staging);
    try {
      await copyDatabase(database, join(staging, DATABASE_FILE));
    } catch (error) {
      throw new BackupError(`${(error as Error).message}. If the database is damaged, see 'parley serve' for what it says and how to recover.`);
    }
    const facts = await inspectDatabaseFile(join(staging, DATABASE_FILE), "quick");
    if (facts.problems.length > 0) throw new BackupError(`The copy of the database is damaged (SQLite says: ${facts.problems.join("; ")}); no backup was written.`);

    const entries = [MANIFEST_FILE, DATABASE_FILE];
    if (existsSync(join(dataDir, QUEUES_FILE))) {
      copyFileSync(join(dataDir, QUEUES_FILE), join(staging, QUEUES_FILE));
      entries.push(QUEUES_FILE);
    }
    const stored = new Set(storedFilesIn(join(dataDir, FILES_DIR)).map((file) => file.sha256));
    if (stored.size > 0) {
      // tar reads one directory tree; the files join the staging tree through a link it follows.
      symlinkSync(join(dataDir, FILES_DIR), join(staging, FILES_DIR));
      entries.push(FILES_DIR);
    }
    const missingFiles = facts.referencedFiles.filter((sha256) => !stored.has(sha256));
    const manifest: BackupManifest = {
      format: ARCHIVE_FORMAT,
      parleyVersion: SERVER_VERSION,
      takenAt: takenAt.toISOString(),
      migrations: facts.migrations.map((migration) => migration.tag),
      counts: { ...facts.counts, files: stored.size },
      includesFiles: true,
    };
    writeFileSync(join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2));

    await tar.c(
      { file: partial, cwd: staging, gzip: { level: 6 }, follow: true, portable: true, maxReadSize: READ_BYTES, filter: (path) => !path.endsWith(".tmp") },
      entries,
    );
    const fd = openSync(partial, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, file);
    return { file, bytes: statSync(file).size, manifest, missingFiles };
  } catch (error) {
    rmSync(partial, { force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`Writing the backup failed: ${(error as Error).message}`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Staging directories of a backup whose process died. Another backup may be under way (the
 * scheduled one and a `parley backup` from cron), so only those of processes gone are removed.
 */
function removeLeftovers(dataDir: string) {
  for (const name of readdirSync(dataDir)) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const pid = Number(name.slice(STAGING_PREFIX.length).split("-")[0]);
    if (Number.isInteger(pid) && pid > 0 && isRunning(pid)) continue;
    rmSync(join(dataDir, name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
