import type { Database } from "bun:sqlite";
import { MIGRATIONS } from "./migrations.generated";

export class NewerDatabaseError extends Error {}

const BREAKPOINT = "--> statement-breakpoint";

/**
 * Applies the SQL migrations drizzle-kit generated (embedded in the binary at build time), each
 * in its own transaction, and refuses a database that has migrations this build does not know:
 * it was written by a newer Parley, and running on it could lose data.
 */
export function applyMigrations(sqlite: Database) {
  sqlite.run(`CREATE TABLE IF NOT EXISTS parley_migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`);
  const applied = new Set(sqlite.query<{ tag: string }, []>("SELECT tag FROM parley_migrations").all().map((row) => row.tag));
  const known = new Set(MIGRATIONS.map((migration) => migration.tag));
  const unknown = [...applied].filter((tag) => !known.has(tag));
  if (unknown.length > 0) {
    throw new NewerDatabaseError(
      `This database was written by a newer version of Parley (it has migration ${unknown.sort().at(-1)}). ` +
        `Upgrade Parley, or restore a backup taken before the upgrade.`,
    );
  }
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.tag)) continue;
    // drizzle-kit rebuilds tables with foreign keys switched off; that pragma is ignored inside
    // a transaction, so switch it around the transaction and check integrity before commit.
    const rebuildsTables = /PRAGMA foreign_keys\s*=\s*OFF/i.test(migration.sql);
    if (rebuildsTables) sqlite.run("PRAGMA foreign_keys = OFF");
    try {
      sqlite.transaction(() => {
        for (const statement of migration.sql.split(BREAKPOINT)) {
          if (statement.trim() !== "" && !/^\s*PRAGMA foreign_keys/i.test(statement)) sqlite.run(statement);
        }
        if (rebuildsTables) {
          const problems = sqlite.query("PRAGMA foreign_key_check").all();
          if (problems.length > 0) throw new Error(`Migration ${migration.tag} broke foreign keys: ${JSON.stringify(problems)}`);
        }
        sqlite.run("INSERT INTO parley_migrations (tag, applied_at) VALUES (?, ?)", [migration.tag, Math.floor(Date.now() / 1000)]);
      })();
    } finally {
      if (rebuildsTables) sqlite.run("PRAGMA foreign_keys = ON");
    }
  }
}
