import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * The bytes of uploaded files and custom emoji, in the data dir under `files/`, named by their
 * SHA-256: the same bytes uploaded twice are stored once, and a name says exactly what a file
 * holds. Rows that point here (attachments, realm_emoji) carry the hash.
 */

const FILES_DIR = "files";

let root: string | null = null;

/** Called by openDatabase: the store lives beside the database it belongs to. */
export function useFileStoreIn(dataDir: string) {
  root = join(dataDir, FILES_DIR);
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
 * hash: an upload acknowledged to a client is on disk.
 */
export function storeFileBytes(bytes: Uint8Array): { sha256: string; size: number } {
  const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  const path = storedFilePath(sha256);
  if (!existsSync(path)) {
    mkdirSync(join(storeRoot(), sha256.slice(0, 2)), { recursive: true });
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    const fd = openSync(temporary, "w");
    try {
      try {
        let written = 0;
        while (written < bytes.length) written += writeSync(fd, bytes, written);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
    } catch (error) {
      // A half-written file (the disk filled up) would hold on to the space it took.
      rmSync(temporary, { force: true });
      throw error;
    }
  }
  return { sha256, size: bytes.length };
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
