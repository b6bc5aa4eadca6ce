import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, linkSync, mkdirSync, openSync, readSync, closeSync, readdirSync, readFileSync, renameSync, rmSync, rmdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import * as tar from "tar";
import { DATABASE_FILE } from "../db/dataDir";
import { storedFilesIn } from "../db/fileStore";
import { inspectDatabaseFile } from "../db/databaseFile";
import { newerSchemaProblem } from "../db/migrate";
import { BackupError, isArchiveEntry, MANIFEST_FILE, parseManifest, type BackupManifest } from "./manifest";

/**
 * `parley restore`: a backup archive (backup/create.ts), or a bare copy of the database (the copy
 * taken before an upgrade, or GET /server/backup's download), into a new data directory. It is
 * unpacked beside the target and checked there first (format, schema version, SQLite's full
 * integrity check, every uploaded file against its hash); only a backup that passes is renamed
 * into place, so a refused restore leaves nothing behind and never touches an existing server.
 */

export interface RestoreResult {
  dataDir: string;
  manifest: BackupManifest | null;
  counts: { messages: number; users: number; files: number };
  /** Files the database points at that the restored directory lacks (see the warnings). */
  missingFiles: number;
  /** True for a bare database: its uploads came from --files-from, or are not there. */
  databaseOnly: boolean;
}

const SQLITE_MAGIC = "SQLite format 3\0";

export async function restoreBackup(fileArg: string, dataDirArg: string, options: { filesFrom?: string } = {}): Promise<RestoreResult> {
  const file = resolve(fileArg);
  const target = resolve(dataDirArg);
  const kind = backupKind(file);
  requireNewTarget(target);
  const filesFrom = options.filesFrom === undefined ? undefined : resolve(options.filesFrom);
  if (filesFrom !== undefined && !existsSync(join(filesFrom, "files")) && !existsSync(join(filesFrom, DATABASE_FILE))) {
    throw new BackupError(`--files-from ${filesFrom} is not a Parley data directory (it has neither files/ nor ${DATABASE_FILE}).`);
  }

  mkdirSync(dirname(target), { recursive: true });
  const staging = `${target}.restoring-${randomUUID().slice(0, 8)}`;
  mkdirSync(staging);
  try {
    let manifest: BackupManifest | null = null;
    if (kind === "archive") {
      await unpack(file, staging);
      if (!existsSync(join(staging, MANIFEST_FILE))) throw new BackupError(`${file} is not a Parley backup: it has no ${MANIFEST_FILE}.`);
      manifest = parseManifest(readFileSync(join(staging, MANIFEST_FILE), "utf8"), file);
      const problem = newerSchemaProblem(
        manifest.migrations.map((tag) => ({ tag, parleyVersion: manifest!.parleyVersion })),
        `The backup ${file}`,
      );
      if (problem) throw new BackupError(problem);
      if (!existsSync(join(staging, DATABASE_FILE))) throw new BackupError(`The backup ${file} is incomplete: it has no ${DATABASE_FILE}.`);
      rmSync(join(staging, MANIFEST_FILE));
    } else {
      copyFileSync(file, join(staging, DATABASE_FILE));
    }

    const facts = await inspect(join(staging, DATABASE_FILE), file);
    const databaseOnly = kind === "database" || manifest?.includesFiles === false;
    if (databaseOnly && filesFrom !== undefined) linkOrCopyTree(join(filesFrom, "files"), join(staging, "files"));
    const present = await checkStoredFiles(join(staging, "files"), file);
    const missingFiles = facts.referencedFiles.filter((sha256) => !present.has(sha256)).length;

    if (existsSync(target)) rmdirSync(target);
    renameSync(staging, target);
    return { dataDir: target, manifest, counts: { ...facts.counts, files: present.size }, missingFiles, databaseOnly };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function backupKind(file: string): "archive" | "database" {
  let head: Buffer;
  try {
    if (!statSync(file).isFile()) throw new BackupError(`${file} is not a file.`);
    const fd = openSync(file, "r");
    head = Buffer.alloc(16);
    try {
      readSync(fd, head, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (head.toString("latin1") === SQLITE_MAGIC) return "database";
  if (head[0] === 0x1f && head[1] === 0x8b) return "archive";
  throw new BackupError(`${file} is not a Parley backup (neither a backup archive made by 'parley backup' nor a copy of a Parley database).`);
}

/** Restoring over a server's data would lose it, so only a missing or empty directory is accepted. */
function requireNewTarget(target: string) {
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) throw new BackupError(`${target} is a file; restore into a new directory.`);
  if (readdirSync(target).length > 0) {
    throw new BackupError(
      `${target} is not empty; Parley restores only into a new or empty directory, so nothing there is overwritten. ` +
        `To replace a server's data: stop it, move its data directory aside, and restore into the same path.`,
    );
  }
}

async function unpack(file: string, staging: string) {
  const refused: string[] = [];
  try {
    await tar.x({
      file,
      cwd: staging,
      strict: true,
      // Only the names a backup has, as plain files and directories: no links, nothing outside.
      filter: (path, entry) => {
        const type = "type" in entry ? entry.type : "File";
        const accepted = isArchiveEntry(path) && (type === "File" || type === "Directory");
        if (!accepted) refused.push(path);
        return accepted;
      },
    });
  } catch (error) {
    throw new BackupError(`The backup ${file} is damaged or not a complete archive (${(error as Error).message}); nothing was restored.`);
  }
  if (refused.length > 0) throw new BackupError(`${file} is not a Parley backup: it holds ${refused.slice(0, 3).join(", ")}, which a backup never does; nothing was restored.`);
}

async function inspect(database: string, file: string) {
  let facts;
  try {
    facts = await inspectDatabaseFile(database, "full");
  } catch (error) {
    throw new BackupError(`The database in ${file} cannot be read (${(error as Error).message}); nothing was restored.`);
  }
  if (facts.problems.length > 0) throw new BackupError(`The database in ${file} is damaged (SQLite says: ${facts.problems.join("; ")}); nothing was restored.`);
  if (facts.migrations.length === 0) throw new BackupError(`${file} holds a database, but not one Parley wrote (it has no schema version); nothing was restored.`);
  const problem = newerSchemaProblem(facts.migrations, `The database in ${file}`);
  if (problem) throw new BackupError(problem);
  return facts;
}

/** Every stored file must hash to its name: a damaged upload is found now, not when someone opens it. */
async function checkStoredFiles(root: string, file: string): Promise<Set<string>> {
  const present = new Set<string>();
  for (const stored of storedFilesIn(root)) {
    const hasher = new Bun.CryptoHasher("sha256");
    for await (const chunk of Bun.file(stored.path).stream()) hasher.update(chunk);
    if (hasher.digest("hex") !== stored.sha256) {
      throw new BackupError(`The uploaded file files/${stored.sha256.slice(0, 2)}/${stored.sha256} in ${file} is damaged (its content does not match its hash); nothing was restored.`);
    }
    present.add(stored.sha256);
  }
  return present;
}

/** Hard links where the two directories share a disk (no space used), copies otherwise. */
function linkOrCopyTree(from: string, to: string) {
  for (const stored of storedFilesIn(from)) {
    const target = join(to, stored.sha256.slice(0, 2), stored.sha256);
    mkdirSync(dirname(target), { recursive: true });
    try {
      linkSync(stored.path, target);
    } catch {
      copyFileSync(stored.path, target);
    }
  }
}
