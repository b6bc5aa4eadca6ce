import { existsSync, readdirSync, rmSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";

/**
 * The bytes of uploaded files and custom emoji, in the data dir under `files/`, named by their
 * SHA-256: the same bytes uploaded twice are stored once, and a name says exactly what a file
 * holds. Rows that point here (attachments, realm_emoji) carry the hash.
 */

const FILES_DIR = "files";

let root: string | null = null;

/**
 * Called when a database is opened: the store lives beside the database it belongs to, in the
 * data dir, unless a directory of its own is configured (PARLEY_FILES_DIR, which the nodes of a
 * cluster share).
 */
export function useFileStoreIn(dataDir: string, filesDir?: string | null) {
  root = filesDir ?? join(dataDir, FILES_DIR);
}

function storeRoot(): string {
  if (root === null) throw new Error("The file store is used before a database was opened");
  return root;
}

export function storedFilePath(sha256: string): string {
  return join(storeRoot(), sha256.slice(0, 2), sha256);
}

/**
 * Writes the bytes (if not there already) and returns their hash. The file is written under a
 * temporary name, flushed to disk and renamed, so a crash never leaves a half file under a
 * hash: an upload acknowledged to a client is on disk. Writing and flushing happen off the
 * event loop: 25 MiB and its flush held every request for a hundred milliseconds or more.
 */
export async function storeFileBytes(bytes: Uint8Array): Promise<{ sha256: string; size: number }> {
  const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  const path = storedFilePath(sha256);
  if (!existsSync(path)) {
    await mkdir(join(storeRoot(), sha256.slice(0, 2)), { recursive: true });
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    const file = await open(temporary, "w");
    try {
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
    } catch (error) {
      // A half-written file (the disk filled up) would hold on to the space it took.
      await rm(temporary, { force: true });
      throw error;
    }
  }
  return { sha256, size: bytes.length };
}

/** What requireStoredFile throws: the bytes a row is about to point at were removed since they were stored. */
class StoredFileGone extends Error {}

/**
 * Inside the transaction that makes a row point at stored bytes: they may have been removed
 * as unused since they were stored (removals happen right after their own commit, never inside
 * another transaction), and then this refuses the commit; writePointingAt stores them again.
 */
export function requireStoredFile(sha256: string) {
  if (!existsSync(storedFilePath(sha256))) throw new StoredFileGone(sha256);
}

/** Runs `commit` (a write that checks requireStoredFile), storing the bytes again and retrying once if they were gone. */
export async function writePointingAt<T>(bytes: Uint8Array, commit: () => Promise<T>): Promise<T> {
  try {
    return await commit();
  } catch (error) {
    if (!(error instanceof StoredFileGone)) throw error;
  }
  await storeFileBytes(bytes);
  return commit();
}

/**
 * Every stored file under a file store's root (files/ of a data dir, or of an unpacked backup):
 * its hash and path. Files still being written (temporary names) are left out.
 */
export function storedFilesIn(filesRoot: string): Array<{ sha256: string; path: string }> {
  if (!existsSync(filesRoot)) return [];
  const found: Array<{ sha256: string; path: string }> = [];
  for (const prefix of readdirSync(filesRoot)) {
    if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
    for (const name of readdirSync(join(filesRoot, prefix))) if (/^[0-9a-f]{64}$/.test(name)) found.push({ sha256: name, path: join(filesRoot, prefix, name) });
  }
  return found;
}

/** Removes the bytes; the caller has checked that no row points at them any more. */
export function removeStoredFile(sha256: string) {
  rmSync(storedFilePath(sha256), { force: true });
}
