import { parseArgs } from "node:util";
import { createBackup } from "../backup/create";
import { restoreBackup } from "../backup/restore";
import { loadConfig } from "../config";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileNameTime } from "../db/dataDir";
import { CommandError, UsageError } from "./errors";
import { BACKUP_USAGE, RESTORE_USAGE } from "./usage";

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `parley backup --out FILE|DIR [--data-dir DIR]`: safe while the server runs. */
export async function runBackup(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { "data-dir": { type: "string" }, out: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false });
  if (values.help) {
    console.log(BACKUP_USAGE);
    return 0;
  }
  if (!values.out) throw new UsageError(`parley backup needs --out FILE (or a directory to put a dated file in).\n\n${BACKUP_USAGE}`);
  const { dataDir, databaseUrl, filesDir } = loadConfig({ dataDir: values["data-dir"] });
  if (databaseUrl) return backUpPostgres(databaseUrl, values.out, filesDir ?? `${dataDir}/files`);
  const started = performance.now();
  const result = await createBackup(dataDir, values.out);
  const { counts } = result.manifest;
  console.log(
    `Backed up ${dataDir} to ${result.file} (${megabytes(result.bytes)}, ${Math.round(performance.now() - started)} ms): ` +
      `${counts.messages} messages, ${counts.users} users, ${counts.files} uploaded files, as committed at ${result.manifest.takenAt}.`,
  );
  if (result.missingFiles.length > 0) {
    console.log(`Note: ${result.missingFiles.length} uploaded file(s) were deleted while the backup was made; the backup's messages that use them will show them as missing.`);
  }
  return 0;
}

/**
 * On PostgreSQL, a backup is PostgreSQL's own: pg_dump's custom format, consistent while the
 * nodes run (one snapshot), restored with pg_restore. Uploaded files are not in it: they are
 * plain files in a directory (PARLEY_FILES_DIR), backed up as files are.
 */
function backUpPostgres(databaseUrl: string, out: string, filesDir: string): number {
  const file = existsSync(out) && statSync(out).isDirectory() ? join(out, `parley-${fileNameTime(new Date())}.dump`) : out;
  const started = performance.now();
  let dump;
  try {
    dump = Bun.spawnSync(["pg_dump", "--format=custom", "--no-owner", "--file", file, "--dbname", databaseUrl], { stdout: "inherit", stderr: "pipe" });
  } catch {
    throw new CommandError("PARLEY_DATABASE_URL is set, so the backup is pg_dump's, and pg_dump was not found: install PostgreSQL's client programs (apt-get install postgresql-client) of the server's version or newer.");
  }
  if (dump.exitCode !== 0) throw new CommandError(`pg_dump failed (exit ${dump.exitCode}): ${dump.stderr.toString().trim()}`);
  console.log(`Backed up the PostgreSQL database to ${file} with pg_dump (${megabytes(statSync(file).size)}, ${Math.round(performance.now() - started)} ms), one consistent snapshot.`);
  console.log(`Restore it with pg_restore into a new, empty database (docs/OPERATIONS.md). Uploaded files are not in it: back up ${filesDir} as files.`);
  return 0;
}

/** `parley restore FILE --data-dir NEWDIR [--files-from OLDDIR]` */
export async function runRestore(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { "data-dir": { type: "string" }, "files-from": { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    console.log(RESTORE_USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`parley restore needs one backup file.\n\n${RESTORE_USAGE}`);
  // No default directory: restoring is never done to a place the operator did not name.
  if (!values["data-dir"]) throw new UsageError(`parley restore needs --data-dir NEWDIR, the new data directory to restore into.\n\n${RESTORE_USAGE}`);
  const { databaseUrl } = loadConfig({ dataDir: values["data-dir"] });
  if (databaseUrl) {
    throw new CommandError(
      `PARLEY_DATABASE_URL is set: the database is PostgreSQL's, and 'parley restore' restores SQLite data directories only. ` +
        `Restore a PostgreSQL dump with pg_restore into a new, empty database (createdb NEW; pg_restore --no-owner -d NEW FILE.dump), ` +
        `put the uploaded files back where PARLEY_FILES_DIR points, and start the nodes with PARLEY_DATABASE_URL naming NEW (docs/OPERATIONS.md).`,
    );
  }
  const result = await restoreBackup(positionals[0]!, values["data-dir"], { filesFrom: values["files-from"] });
  const { counts } = result;
  const from = result.manifest ? `the backup made by ${result.manifest.parleyVersion} at ${result.manifest.takenAt}` : "the database copy";
  console.log(`Restored ${from} into ${result.dataDir}: ${counts.messages} messages, ${counts.users} users, ${counts.files} uploaded files, all checked.`);
  if (result.databaseOnly && values["files-from"] === undefined && result.missingFiles > 0) {
    console.log(`This backup holds only the database; its ${result.missingFiles} uploaded file(s) are not in it. Restore again with --files-from OLD_DATA_DIR to bring them from the data directory it came from.`);
  } else if (result.missingFiles > 0) {
    console.log(`Note: ${result.missingFiles} uploaded file(s) the messages point at are not in the backup (deleted while it was made); they will show as missing.`);
  }
  console.log(`Start it with: parley serve --data-dir ${result.dataDir}`);
  return 0;
}
