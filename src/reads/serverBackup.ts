import { randomUUID } from "node:crypto";
import { type FileHandle, open, readdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { copyDatabase } from "../db/backup";
import { fileNameTime } from "../db/dataDir";
import { dialect } from "../db/dialect";
import { databaseFilePath } from "../db/serverStatus";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { ApiError, ownerRequired } from "../http/errors";
import { log } from "../log";
import { isOwner } from "../model/roles";

/**
 * GET /server/backup: a copy of the database (db/backup.ts) for an owner to download. Owners
 * only: it holds every message, private ones included, and every password hash.
 *
 * The copy is written to a temporary file in the data dir (the one place known to have room
 * for the database), opened, and unlinked at once: the open file stays readable for the
 * download, and nothing is left behind however the download ends, even if the process dies.
 * Leftovers of a process killed during the copy itself are removed by the next backup.
 */

const TEMPORARY_PREFIX = ".parley-backup-";
const CHUNK_BYTES = 256 * 1024;

/** One backup at a time, from the copy until its download ends: each takes the database's size on disk. */
let inProgress = false;

export interface Backup {
  fileName: string;
  body: ReadableStream<Uint8Array>;
}

/** parley-backup-2025-01-31T120500Z.sqlite3: UTC, without colons, which some systems refuse in file names. */
const backupFileName = (at: Date) => `parley-backup-${fileNameTime(at)}.sqlite3`;

async function removeLeftovers(dataDir: string) {
  for (const name of await readdir(dataDir)) if (name.startsWith(TEMPORARY_PREFIX)) await rm(join(dataDir, name), { force: true });
}

export async function makeBackup(user: User, signal?: AbortSignal): Promise<Backup> {
  if (!isOwner(user.role)) throw ownerRequired();
  if (dialect() === "postgres") {
    throw new ApiError("BAD_REQUEST", "This server keeps its data in PostgreSQL: back it up with pg_dump ('parley backup' runs it), not by download (docs/OPERATIONS.md).");
  }
  if (inProgress) throw new ApiError("BAD_REQUEST", "A backup is already being made. Try again once its download has finished.");
  inProgress = true;
  let file: FileHandle | undefined;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    inProgress = false;
    void file?.close().catch(() => undefined);
  };
  // A client that hangs up ends the backup wherever it is.
  signal?.addEventListener("abort", release, { once: true });
  try {
    const startedAt = new Date();
    const databasePath = await read((db) => databaseFilePath(db));
    const dataDir = dirname(databasePath);
    await removeLeftovers(dataDir);
    const temporary = join(dataDir, `${TEMPORARY_PREFIX}${randomUUID()}.sqlite3`);
    try {
      await copyDatabase(databasePath, temporary);
      file = await open(temporary, "r");
    } finally {
      await rm(temporary, { force: true });
    }
    if (released || signal?.aborted) throw new ApiError("BAD_REQUEST", "The backup was cancelled.");
    const size = (await file.stat()).size;
    log.info(`Backup of ${size} bytes made for user ${user.id} in ${Date.now() - startedAt.getTime()} ms`);
    const copy = file;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = new Uint8Array(CHUNK_BYTES);
          const { bytesRead } = await copy.read(chunk, 0, CHUNK_BYTES, null);
          if (bytesRead > 0) return controller.enqueue(chunk.subarray(0, bytesRead));
          controller.close();
          release();
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      cancel: release,
    });
    return { fileName: backupFileName(startedAt), body };
  } catch (error) {
    release();
    throw error;
  }
}
