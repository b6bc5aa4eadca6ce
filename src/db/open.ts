import { openDatabase, type OpenedDatabase, type OpenOptions } from "./client";
import { useFileStoreIn } from "./fileStore";
import { loadPresences } from "./presenceStore";
import { openPostgresDatabase } from "./postgresClient";

/** Where the database is, as the configuration says (config.ts). */
export interface StoreLocation {
  dataDir: string;
  /** PostgreSQL's URL; null for SQLite in the data dir. */
  databaseUrl: string | null;
  filesDir: string | null;
}

/** Opens the configured database: SQLite in the data dir, or PostgreSQL when a URL is given. */
export async function openStore(location: StoreLocation, options: OpenOptions = {}): Promise<OpenedDatabase> {
  if (location.databaseUrl) {
    const opened = await openPostgresDatabase(location.databaseUrl, location.dataDir, { ...options, filesDir: location.filesDir });
    await loadPresences();
    return opened;
  }
  const opened = openDatabase(location.dataDir, options);
  if (location.filesDir) useFileStoreIn(location.dataDir, location.filesDir);
  return opened;
}
