import type { Database } from "bun:sqlite";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SERVER_VERSION } from "../version";
import { DataDirError, fileNameTime } from "./dataDir";

/**
 * Before migrations change a database, a copy of it as the previous version wrote it goes to
 * `backups/` in the data dir, so an upgrade can be undone: stop, `parley restore` the copy with
 * the old binary. Only the database: migrations never touch uploaded files, and copying those on
 * every upgrade could fill a small disk. The newest few are kept.
 */

export const BACKUPS_DIR = "backups";
const PREFIX = "before-upgrade-";
const KEEP = 3;

/** `backups/before-upgrade-2026-11-25T030000Z-to-parley-0.2.0.db`: when first, so names sort by age. */
const fileName = (at: Date) => `${PREFIX}${fileNameTime(at)}-to-${SERVER_VERSION}.db`;

/** Runs on the connection that is about to migrate, before anything else uses it: nothing writes meanwhile. */
export function backUpBeforeUpgrade(sqlite: Database, dataDir: string): string {
  const directory = join(dataDir, BACKUPS_DIR);
  const path = join(directory, fileName(new Date()));
  try {
    mkdirSync(directory, { recursive: true });
    sqlite.run("VACUUM INTO ?", [path]);
  } catch (error) {
    rmSync(path, { force: true });
    throw new DataDirError(
      `This version of Parley must upgrade the database, and copies it first, but the copy failed: ${(error as Error).message}. ` +
        `Nothing was changed. Free some disk space in ${dataDir} (the copy needs about the database's size) and start again.`,
    );
  }
  const old = readdirSync(directory)
    .filter((name) => name.startsWith(PREFIX) && name.endsWith(".db"))
    .sort()
    .slice(0, -KEEP);
  for (const name of old) rmSync(join(directory, name), { force: true });
  return path;
}
