import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { closeDatabase, openDatabase } from "../db/client";
import { copyToPostgres, type CopyProgress } from "../db/copyToPostgres";
import { openPostgresDatabase, redacted } from "../db/postgresClient";
import { MIGRATE_TO_POSTGRES_USAGE } from "./usage";
import { UsageError } from "./errors";

/** `parley migrate-to-postgres`: a SQLite data dir's database into an empty PostgreSQL database. */
export async function runMigrateToPostgres(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { "data-dir": { type: "string" }, "database-url": { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(MIGRATE_TO_POSTGRES_USAGE);
    return 0;
  }
  const config = loadConfig({ dataDir: values["data-dir"] });
  const url = values["database-url"] ?? process.env.PARLEY_DATABASE_URL;
  if (!url) throw new UsageError("--database-url is required (or PARLEY_DATABASE_URL).\nRun 'parley migrate-to-postgres --help' for the options.");
  if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError(`--database-url must be a PostgreSQL URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE), got '${redacted(url)}'.`);

  // The data dir is checked (and its schema brought up to date) as a server start would.
  openDatabase(config.dataDir, { newInstall: "refuse" });
  await closeDatabase();
  // The schema is made in the target, which must be empty (refused otherwise, changing nothing).
  await openPostgresDatabase(url, config.dataDir, { newInstall: "allow" });
  await closeDatabase();

  console.error(`Copying ${config.dataDir} into ${redacted(url)}`);
  const started = performance.now();
  const report = await copyToPostgres(config.dataDir, url, showProgress(started));
  if (process.stderr.isTTY) process.stderr.write("\n");
  const rows = report.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(`Copied ${rows} rows in ${report.tables.length} tables in ${((performance.now() - started) / 1000).toFixed(1)} s; every table's row count and SHA-256 checksum match.`);
  console.log(`Uploaded files stay in ${config.dataDir}/files: point PARLEY_FILES_DIR there (or copy them to the directory your nodes share).`);
  console.log(`Start Parley on it with: PARLEY_DATABASE_URL='${redacted(url)}' parley serve --data-dir ${config.dataDir}`);
  return 0;
}

/** A progress bar on a terminal; a line per table otherwise (logs, scripts). */
function showProgress(started: number) {
  let lastTable = "";
  let drawnAt = 0;
  return (step: CopyProgress) => {
    const done = step.copied >= step.total;
    if (!process.stderr.isTTY) {
      if (done && step.table !== lastTable) console.error(`  ${step.table}: ${step.total} rows`);
      if (done) lastTable = step.table;
      return;
    }
    const now = performance.now();
    if (!done && now - drawnAt < 100) return;
    drawnAt = now;
    const width = 30;
    const filled = step.total === 0 ? width : Math.round((step.copied / step.total) * width);
    const elapsed = (now - started) / 1000;
    process.stderr.write(`\r  ${step.table.padEnd(28)} [${"#".repeat(filled)}${" ".repeat(width - filled)}] ${step.copied}/${step.total}  ${elapsed.toFixed(0)} s `);
    if (done) process.stderr.write("\n");
  };
}
