import { SQL } from "bun";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The suite's second run, against PostgreSQL: with PARLEY_TEST_POSTGRES_URL set (a superuser's
 * URL to a throwaway PostgreSQL on loopback, which .ci/run starts), every server a test starts
 * gets a database of its own on it, made when its data dir is, and named in the data dir (the
 * file MARK), so a restart or a copy of the data dir finds it. Without it, servers use SQLite in
 * their data dir as always.
 *
 * Templates (dataDirTemplate.ts) are databases too: a copy is `CREATE DATABASE ... TEMPLATE`.
 */

export const TEST_POSTGRES_URL = process.env.PARLEY_TEST_POSTGRES_URL || undefined;

/** Whether this run's servers keep their data in PostgreSQL. */
export const ON_POSTGRES = TEST_POSTGRES_URL !== undefined;

/** The file in a data dir naming its test database. */
export const MARK = "test-database-url";

let admin: SQL | undefined;
const adminConnection = () => (admin ??= new SQL({ url: TEST_POSTGRES_URL!, max: 2, idleTimeout: 5 }));

let made = 0;

const urlFor = (name: string) => {
  const url = new URL(TEST_POSTGRES_URL!);
  url.pathname = `/${name}`;
  return url.toString();
};

const nameOf = (url: string) => new URL(url).pathname.slice(1);

/** The database URL a data dir's servers use (undefined when it has none: SQLite). */
export function databaseUrlOf(dataDir: string): string | undefined {
  const mark = join(dataDir, MARK);
  return existsSync(mark) ? readFileSync(mark, "utf8").trim() : undefined;
}

/**
 * Gives `dataDir` a database of its own (empty, or a copy of `templateOf`'s), unless it has one
 * or this run is not on PostgreSQL; the environment its servers need.
 */
export async function ensureDatabaseFor(dataDir: string, templateOf?: string): Promise<Record<string, string>> {
  if (!ON_POSTGRES) return {};
  let url = databaseUrlOf(dataDir);
  if (url === undefined) {
    const name = `t_${process.pid}_${++made}_${Math.random().toString(36).slice(2, 8)}`;
    const template = templateOf === undefined ? undefined : databaseUrlOf(templateOf);
    for (let attempt = 0; ; attempt++) {
      try {
        await adminConnection().unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${nameOf(template)}` : ""}`);
        break;
      } catch (error) {
        // Two copies of one template at the same moment: PostgreSQL lets one at a time read it.
        if (attempt < 50 && /being accessed by other users/.test(String(error))) await Bun.sleep(50 + Math.random() * 100);
        else throw error;
      }
    }
    url = urlFor(name);
    writeFileSync(join(dataDir, MARK), url);
  }
  return { PARLEY_DATABASE_URL: url };
}

/** Drops a data dir's database (its servers stopped). */
export async function dropDatabaseOf(dataDir: string) {
  const url = databaseUrlOf(dataDir);
  if (url === undefined) return;
  await adminConnection().unsafe(`DROP DATABASE IF EXISTS ${nameOf(url)} WITH (FORCE)`).catch(() => {});
}

/** psql takes no parameters: each `?` of a statement gets its value written in, as a literal. */
export function inlineParameters(statement: string, params: Array<string | number>): string {
  let n = 0;
  return statement.replace(/\?/g, () => {
    const value = params[n++];
    return typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
  });
}

/** The psql command that runs a SELECT and prints its rows as one JSON array. */
export const psqlSelectCommand = (url: string, select: string) => ["psql", url, "-v", "ON_ERROR_STOP=1", "-Atqc", `SELECT coalesce(json_agg(row), '[]') FROM (${select}) row`];

/**
 * psqlSelectCommand's output as SQLite would give the rows: a boolean column as 1 or 0, a jsonb
 * column as JSON text (json_agg nests it parsed), so tests compare the same values on both.
 */
export function rowsAsSqliteGives<T>(output: string): T[] {
  const rows = JSON.parse(output) as Array<Record<string, unknown>>;
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      if (typeof value === "boolean") row[key] = value ? 1 : 0;
      else if (typeof value === "object" && value !== null) row[key] = JSON.stringify(value);
    }
  }
  return rows as T[];
}
