/**
 * Databases as earlier releases wrote them, for the upgrade test (test/upgrade.test.ts).
 *
 * A release's fixture is its schema, built here from the SQL files in migrations/ up to the last
 * one that release shipped (migrations/releases.json), filled with data a real server of that
 * release wrote (test/fixtures/upgrade/release-VERSION.sql, rows only, and the uploaded files
 * beside it). Text, not a binary database in git: a reviewer can read what the fixture holds.
 *
 *   bun scripts/upgrade-fixture.ts build --release 0.1.0 --data-dir DIR
 *       makes DIR/parley.db (and DIR/files) as that release left them
 *   bun scripts/upgrade-fixture.ts capture --release 0.1.0 --data-dir DIR
 *       records the rows of a stopped server's data dir, made by that release, as its fixture
 */
import { Database } from "bun:sqlite";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const ROOT = join(import.meta.dir, "..");
const FIXTURES = join(ROOT, "test", "fixtures", "upgrade");
const BREAKPOINT = "--> statement-breakpoint";

/** Release version -> the tag of the last migration it shipped. */
export const RELEASES: Record<string, string> = JSON.parse(readFileSync(join(ROOT, "migrations", "releases.json"), "utf8"));

/** Tables whose rows are not data: the search index is rebuilt by its triggers as rows go in. */
const skipped = (table: string) => table.startsWith("sqlite_") || table.startsWith("messages_fts") || table === "parley_migrations";

function migrationsUpTo(last: string): Array<{ tag: string; sql: string }> {
  return readdirSync(join(ROOT, "migrations"))
    .filter((name) => name.endsWith(".sql") && name.replace(/\.sql$/, "") <= last)
    .sort()
    .map((name) => ({ tag: name.replace(/\.sql$/, ""), sql: readFileSync(join(ROOT, "migrations", name), "utf8") }));
}

export function buildFixture(release: string, dataDir: string) {
  const last = RELEASES[release];
  if (!last) throw new Error(`No release ${release} in migrations/releases.json`);
  buildSchema(last, dataDir);
  const sqlite = new Database(join(dataDir, "parley.db"));
  sqlite.run(readFileSync(join(FIXTURES, `release-${release}.sql`), "utf8"));
  sqlite.close();
  const files = join(FIXTURES, `release-${release}-files`);
  if (existsSync(files)) cpSync(files, join(dataDir, "files"), { recursive: true });
}

/** An empty database with the schema migrations up to `last` make, recorded the way 0.1.0 did. */
export function buildSchema(last: string, dataDir: string) {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(join(dataDir, "parley.db"), { create: true });
  sqlite.run("PRAGMA journal_mode = WAL");
  // The way releases up to 0.1.0 kept the schema version: no record of which Parley applied it.
  sqlite.run("CREATE TABLE parley_migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  for (const migration of migrationsUpTo(last)) {
    for (const statement of migration.sql.split(BREAKPOINT)) if (statement.trim() !== "" && !/^\s*PRAGMA foreign_keys/i.test(statement)) sqlite.run(statement);
    sqlite.run("INSERT INTO parley_migrations (tag, applied_at) VALUES (?, 1767225600)", [migration.tag]);
  }
  sqlite.close();
}

const literal = (value: unknown): string => {
  if (value === null) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (value instanceof Uint8Array) return `X'${Buffer.from(value).toString("hex")}'`;
  return `'${String(value).replaceAll("'", "''")}'`;
};

function capture(release: string, dataDir: string) {
  const sqlite = new Database(join(dataDir, "parley.db"), { readonly: true });
  const tables = sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rowid").all().map((row) => row.name).filter((name) => !skipped(name));
  const lines = [`-- Rows written by a Parley ${release} server (scripts/upgrade-fixture.ts capture); loaded after that release's migrations.`, "PRAGMA foreign_keys = OFF;"];
  for (const table of tables) {
    for (const row of sqlite.query<Record<string, unknown>, []>(`SELECT * FROM "${table}"`).all()) {
      lines.push(`INSERT INTO "${table}" (${Object.keys(row).map((column) => `"${column}"`).join(", ")}) VALUES (${Object.values(row).map(literal).join(", ")});`);
    }
  }
  sqlite.close();
  mkdirSync(FIXTURES, { recursive: true });
  writeFileSync(join(FIXTURES, `release-${release}.sql`), `${lines.join("\n")}\n`);
  const files = join(FIXTURES, `release-${release}-files`);
  rmSync(files, { recursive: true, force: true });
  if (existsSync(join(dataDir, "files"))) cpSync(join(dataDir, "files"), files, { recursive: true });
  console.log(`Captured ${lines.length - 2} rows of ${tables.length} tables into ${join(FIXTURES, `release-${release}.sql`)}`);
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({ options: { release: { type: "string" }, "data-dir": { type: "string" } }, allowPositionals: true });
  if (!values.release || !values["data-dir"] || !["build", "capture"].includes(positionals[0] ?? "")) {
    console.error("Usage: bun scripts/upgrade-fixture.ts build|capture --release VERSION --data-dir DIR");
    process.exit(2);
  }
  if (positionals[0] === "build") buildFixture(values.release, values["data-dir"]);
  else capture(values.release, values["data-dir"]);
}
