import type { Database } from "bun:sqlite";
import { SERVER_VERSION } from "../version";
import { MIGRATIONS } from "./migrations.generated";

export class NewerDatabaseError extends Error {}

/** A migration failed; the transaction left the database as it was. */
export class UpgradeFailedError extends Error {}

const BREAKPOINT = "--> statement-breakpoint";

export interface AppliedMigration {
  tag: string;
  /** The Parley that applied it; null for migrations applied before versions were recorded. */
  parleyVersion: string | null;
}

/** The migrations recorded in a database, oldest first; none for a database Parley never migrated. */
export function appliedMigrations(sqlite: Database): AppliedMigration[] {
  const table = sqlite.query<{ name: string }, []>("SELECT name FROM pragma_table_info('parley_migrations')").all();
  if (table.length === 0) return [];
  const version = table.some((column) => column.name === "parley_version") ? "parley_version" : "NULL";
  return sqlite.query<AppliedMigration, []>(`SELECT tag, ${version} AS parleyVersion FROM parley_migrations ORDER BY tag`).all();
}

/** Migration tags this build knows, oldest first: the schema version it writes. */
export const knownMigrations = (): string[] => MIGRATIONS.map((migration) => migration.tag);

/**
 * Null when this build knows every migration applied; otherwise why it must not touch the
 * database (`what` names it: "This database", "The backup …"), naming the version needed.
 */
export function newerSchemaProblem(applied: AppliedMigration[], what: string, knownTags: string[] = knownMigrations()): string | null {
  const known = new Set(knownTags);
  const unknown = applied.filter((migration) => !known.has(migration.tag));
  if (unknown.length === 0) return null;
  const newest = unknown.map((migration) => migration.tag).sort().at(-1);
  const versions = unknown.map((migration) => migration.parleyVersion).filter((version): version is string => version !== null);
  const needed = versions.sort(compareVersions).at(-1);
  const by = needed ? `${needed} or newer` : "a newer version of Parley";
  return `${what} was written by ${needed ?? "a newer version of Parley"} (it has migration ${newest}, which ${SERVER_VERSION} does not know). Run ${by}, or restore a backup taken before the upgrade.`;
}

/** Orders "parley-0.10.0" after "parley-0.9.1". */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.replace(/^parley-/, "").split(/[.-]/).map((part) => Number(part) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

export interface MigrationOptions {
  /** Called once before the first change to a database that already has a schema: the place for a backup. */
  beforeUpgrade?: (pending: string[], applied: AppliedMigration[]) => void;
}

/**
 * Applies the SQL migrations drizzle-kit generated (embedded in the binary at build time), all
 * pending ones in one transaction: an upgrade that fails part way leaves the database exactly as
 * the previous version wrote it. A database with migrations this build does not know was written
 * by a newer Parley, and running on it could lose data, so it is refused.
 */
export function applyMigrations(sqlite: Database, options: MigrationOptions = {}) {
  const applied = appliedMigrations(sqlite);
  const problem = newerSchemaProblem(applied, "This database");
  if (problem) throw new NewerDatabaseError(problem);
  const done = new Set(applied.map((migration) => migration.tag));
  const pending = MIGRATIONS.filter((migration) => !done.has(migration.tag));
  if (pending.length === 0) return;
  if (applied.length > 0) options.beforeUpgrade?.(pending.map((migration) => migration.tag), applied);

  // drizzle-kit rebuilds tables with foreign keys switched off; that pragma is ignored inside a
  // transaction, so it is switched around the transaction and the keys are checked before commit.
  const rebuildsTables = pending.some((migration) => /PRAGMA foreign_keys\s*=\s*OFF/i.test(migration.sql));
  if (rebuildsTables) sqlite.run("PRAGMA foreign_keys = OFF");
  try {
    sqlite.transaction(() => {
      sqlite.run(`CREATE TABLE IF NOT EXISTS parley_migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL, parley_version TEXT)`);
      // Databases from before versions were recorded; older binaries insert without the column.
      if (!sqlite.query("SELECT 1 FROM pragma_table_info('parley_migrations') WHERE name = 'parley_version'").get()) {
        sqlite.run("ALTER TABLE parley_migrations ADD COLUMN parley_version TEXT");
      }
      const now = Math.floor(Date.now() / 1000);
      for (const migration of pending) {
        try {
          for (const statement of migration.sql.split(BREAKPOINT)) {
            if (statement.trim() !== "" && !/^\s*PRAGMA foreign_keys/i.test(statement)) sqlite.run(statement);
          }
        } catch (error) {
          throw new UpgradeFailedError(
            `Upgrading the database for ${SERVER_VERSION} failed at migration ${migration.tag}: ${(error as Error).message}. ` +
              `Nothing was changed: the upgrade runs in one transaction, and the previous version of Parley still runs on this database. Please report this.`,
          );
        }
        sqlite.run("INSERT INTO parley_migrations (tag, applied_at, parley_version) VALUES (?, ?, ?)", [migration.tag, now, SERVER_VERSION]);
      }
      if (rebuildsTables) {
        const problems = sqlite.query("PRAGMA foreign_key_check").all();
        if (problems.length > 0) throw new Error(`Upgrading the database broke foreign keys: ${JSON.stringify(problems.slice(0, 5))}`);
      }
    })();
  } finally {
    if (rebuildsTables) sqlite.run("PRAGMA foreign_keys = ON");
  }
}
