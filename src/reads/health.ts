import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";
import { databaseFilePath } from "../db/serverStatus";
import { read } from "../db/transaction";

export type Health = { ok: true } | { ok: false; reason: string };

/**
 * GET /health and `parley health`: whether this process can still serve its data. Cheap enough
 * for a probe every few seconds: one query (which proves the connection is open and answers),
 * then two file-system checks for failures SQLite itself does not notice at once: the data
 * directory deleted or unmounted under a running server (SQLite keeps reading and writing the
 * deleted file, and everything written from then on is lost at the next start), and a data
 * directory that became read-only (a file system remounted read-only after errors).
 */
export function checkHealth(): Health {
  let file: string;
  try {
    file = read((db) => databaseFilePath(db));
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
  return { ok: true };
}
