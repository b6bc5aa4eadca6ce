/**
 * What a backup archive says about itself, in `parley-backup.json`, its first entry: restore reads
 * it before anything else, so an archive that is not Parley's, or is from a newer Parley, is
 * refused before a byte of it is written anywhere.
 */

export const MANIFEST_FILE = "parley-backup.json";
/** Bumped when the archive's layout changes in a way an older restore would misread. */
export const ARCHIVE_FORMAT = 1;

export interface BackupManifest {
  format: number;
  /** The Parley that made it, e.g. "parley-0.2.0". */
  parleyVersion: string;
  /** ISO time at which the database copy was taken: the backup holds what was committed then. */
  takenAt: string;
  /** Migration tags applied to the copied database, oldest first: its schema version. */
  migrations: string[];
  counts: { messages: number; users: number; files: number };
  /** Whether the archive holds the uploaded files (files/) besides the database. */
  includesFiles: boolean;
}

/** Entries a restore accepts; anything else in an archive is refused rather than written. */
export function isArchiveEntry(path: string): boolean {
  const clean = path.replace(/^\.\//, "");
  return (
    clean === MANIFEST_FILE ||
    clean === "parley.db" ||
    clean === "event_queues.json" ||
    clean === "files" ||
    clean === "files/" ||
    /^files\/[0-9a-f]{2}\/?$/.test(clean) ||
    /^files\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(clean)
  );
}

export class BackupError extends Error {}

export function parseManifest(text: string, source: string): BackupManifest {
  let value: Partial<BackupManifest>;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupError(`${source} is not a Parley backup: its ${MANIFEST_FILE} is not JSON.`);
  }
  if (typeof value !== "object" || value === null || typeof value.format !== "number" || !Array.isArray(value.migrations) || typeof value.parleyVersion !== "string") {
    throw new BackupError(`${source} is not a Parley backup: its ${MANIFEST_FILE} lacks the format, version or schema.`);
  }
  if (value.format > ARCHIVE_FORMAT) {
    throw new BackupError(`${source} was made by ${value.parleyVersion} in a newer backup format (${value.format}); restore it with that version of Parley or a newer one.`);
  }
  return value as BackupManifest;
}
