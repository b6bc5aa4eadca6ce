import { parseArgs } from "node:util";
import { createBackup } from "../backup/create";
import { restoreBackup } from "../backup/restore";
import { loadConfig } from "../config";
import { UsageError } from "./errors";
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
  const { dataDir } = loadConfig({ dataDir: values["data-dir"] });
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
