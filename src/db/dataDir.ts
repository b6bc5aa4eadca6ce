import { closeSync, constants, accessSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * What a data directory holds before Parley opens it, so that a mistyped --data-dir, a lost
 * database or a read-only disk is refused with an explanation instead of being served as a
 * brand-new, claimable server or one that answers 500 on every write.
 */

export const DATABASE_FILE = "parley.db";

/**
 * Files only Parley puts in a data dir besides the database. Any of them without the database
 * means the database was lost, not that this is a new install. (files/ is db/fileStore.ts's
 * store of uploads; backups/ is db/upgradeBackup.ts's; event_queues.json is
 * src/events/persistence.ts's QUEUES_FILE; the db layer does not import the events layer.)
 */
const COMPANION_FILES = ["files", "backups", `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, `${DATABASE_FILE}-journal`, "event_queues.json", "event_queues.json.tmp"];

/** The data dir cannot be used as it is; the message says why and what to do. */
export class DataDirError extends Error {}

/**
 * Appended to every refusal of a damaged or lost database; SQLite's recovery only where
 * there is a file with something in it to recover.
 */
export function restoreAdvice(dataDir: string, recoverable = true): string {
  const advice = [`To restore: stop Parley, move ${dataDir} aside, and put your latest backup copy of the whole data directory in its place.`];
  if (recoverable) {
    advice.push(
      `Without a backup, SQLite may save part of the data: sqlite3 ${join(dataDir, DATABASE_FILE)} .recover | sqlite3 recovered.db, then use recovered.db as parley.db in a new data directory.`,
    );
  }
  return advice.join("\n");
}

const startNewServerAdvice = (dataDir: string) =>
  `If your data is elsewhere, check --data-dir or PARLEY_DATA_DIR. To start a new, empty server in ${dataDir}, run 'parley serve --init' (or 'parley init', see 'parley init --help').`;

/** A time for file names Parley writes (backups): UTC to the second, without the colons some systems refuse. */
export const fileNameTime = (at: Date) => at.toISOString().replace(/\.\d+Z$/, "Z").replaceAll(":", "");

export type NewInstall = "allow" | "refuse";

/** What was made so the database could be opened: nothing, the database file, or the directory too. */
export type Created = null | "database" | "directory";

/**
 * Checks the directory (which must be absolute) before the database is opened. Creates the
 * directory when it is missing and `newInstall` allows. Returns what the open will create.
 */
export function prepareDataDir(dataDir: string, newInstall: NewInstall): Created {
  let created: Created = null;
  const kind = directoryKind(dataDir);
  if (kind === "missing") {
    if (newInstall === "refuse") throw new DataDirError(`The data directory ${dataDir} does not exist.\n${startNewServerAdvice(dataDir)}`);
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (error) {
      throw new DataDirError(`Cannot use data directory ${dataDir}: ${(error as Error).message}`);
    }
    created = "directory";
  }
  requireWritableDirectory(dataDir);

  const database = fileSize(join(dataDir, DATABASE_FILE));
  if (database === undefined) {
    const companions = COMPANION_FILES.filter((name) => fileSize(join(dataDir, name)) !== undefined);
    if (companions.length > 0) {
      throw new DataDirError(
        `The data directory ${dataDir} holds ${companions.join(" and ")} but no ${DATABASE_FILE}: the database was deleted or moved, ` +
          `and the data in it is lost unless you restore it. Parley will not start a new one here.\n${restoreAdvice(dataDir, false)}`,
      );
    }
    if (newInstall === "refuse") {
      const what = created === null && readdirSync(dataDir).length === 0 ? "is empty" : `holds no ${DATABASE_FILE}`;
      throw new DataDirError(`The data directory ${dataDir} ${what}.\n${startNewServerAdvice(dataDir)}`);
    }
    return created ?? "database";
  }
  // SQLite writes the first page as soon as a database is made (Parley's WAL mode is recorded
  // there), so an empty file is one that lost its content, or a start that died at once.
  if (database === 0) {
    throw new DataDirError(
      `The database ${join(dataDir, DATABASE_FILE)} is empty (0 bytes): its data is lost. Parley will not start a new one over it.\n` +
        `If this server never held data, delete the file and run 'parley serve --init'. Otherwise:\n${restoreAdvice(dataDir, false)}`,
    );
  }
  requireWritableFile(join(dataDir, DATABASE_FILE));
  return null;
}

function directoryKind(dataDir: string): "missing" | "directory" {
  let stats;
  try {
    stats = statSync(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw new DataDirError(`Cannot use data directory ${dataDir}: ${(error as Error).message}`);
  }
  if (!stats.isDirectory()) throw new DataDirError(`Cannot use data directory ${dataDir}: it is a file, not a directory.`);
  return "directory";
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new DataDirError(`Cannot read ${path}: ${(error as Error).message}`);
  }
}

export function readOnlyMessage(path: string, what: "directory" | "database"): string {
  const who = typeof process.getuid === "function" ? ` (user id ${process.getuid()})` : "";
  const needs = what === "directory" ? "create and delete files in it (the database's journal, saved event queues)" : "write to it";
  return (
    `The ${what} ${path} is read-only for Parley${who}, which must ${needs}. Parley does not start read-only, ` +
    `since every change would fail. Give the user running Parley write access (or mount the volume read-write) and start again.`
  );
}

/**
 * Permission bits first, for the clear case; then a file actually created and deleted, since
 * access() says yes to root even where writing fails (an immutable directory, a read-only mount).
 */
function requireWritableDirectory(dataDir: string) {
  try {
    accessSync(dataDir, constants.W_OK | constants.X_OK);
    const probe = join(dataDir, `.parley-write-check-${process.pid}`);
    closeSync(openSync(probe, "wx"));
    rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM" || code === "EROFS") throw new DataDirError(readOnlyMessage(dataDir, "directory"));
    throw new DataDirError(`Cannot use data directory ${dataDir}: ${(error as Error).message}`);
  }
}

function requireWritableFile(path: string) {
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM" || code === "EROFS") throw new DataDirError(readOnlyMessage(path, "database"));
    throw new DataDirError(`Cannot use the database ${path}: ${(error as Error).message}`);
  }
}
