import { Database } from "bun:sqlite";
import { appliedMigrations, type AppliedMigration } from "./migrate";

/**
 * What a database file that is not the one being served holds: a backup's copy, or a database
 * about to be restored. Opened read-only, on its own connection.
 */
export interface DatabaseFacts {
  /** "ok", or what SQLite's check found wrong. */
  problems: string[];
  migrations: AppliedMigration[];
  counts: { messages: number; users: number };
  /** SHA-256 names of stored files that rows point at (db/fileStore.ts): uploads, avatars, custom emoji. */
  referencedFiles: string[];
}

/** Every column that names a file in the store; db/uploads.ts's isStoredFileInUse asks the same three. */
const REFERENCED_FILES = `SELECT sha256 FROM attachments UNION SELECT avatar_file FROM users WHERE avatar_file IS NOT NULL UNION SELECT sha256 FROM realm_emoji`;

/**
 * A full integrity_check also checks that every index matches its table (slow on a big file, and
 * worth it before a restore); quick_check only the structure of each page.
 */
export function inspectDatabaseFile(path: string, check: "quick" | "full"): DatabaseFacts {
  const sqlite = new Database(path, { readonly: true });
  try {
    const problems = sqlite
      .query<Record<string, string>, []>(check === "full" ? "PRAGMA integrity_check(5)" : "PRAGMA quick_check(5)")
      .all()
      .map((row) => Object.values(row)[0]!);
    if (problems.length !== 1 || problems[0] !== "ok") return { problems, migrations: [], counts: { messages: 0, users: 0 }, referencedFiles: [] };
    const migrations = appliedMigrations(sqlite);
    const count = (table: string) => sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
    const schemaReady = migrations.length > 0;
    return {
      problems: [],
      migrations,
      counts: schemaReady ? { messages: count("messages"), users: count("users") } : { messages: 0, users: 0 },
      referencedFiles: schemaReady ? sqlite.query<{ sha256: string }, []>(REFERENCED_FILES).all().map((row) => row.sha256) : [],
    };
  } finally {
    sqlite.close();
  }
}
