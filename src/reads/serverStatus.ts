import { requireAdministrator } from "../access/users";
import { backupRunSummary } from "../db/backupRuns";
import { countPendingOutbox } from "../db/outbox";
import { countStored, databaseFigures } from "../db/serverStatus";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { type QueueFigures, queueFigures, SERVER_GENERATION } from "../events/registry";
import { type LoggedWarning, recentWarnings } from "../log";
import { dataDirOf, dataDiskFigures } from "./health";
import { FEATURE_LEVEL, SERVER_VERSION } from "../version";

/** GET /server/status (a Parley addition, docs/API.md): how the server is doing, for its administrators. */

export interface ServerStatus {
  version: string;
  feature_level: number;
  /** UNIX seconds. */
  started_at: number;
  uptime_seconds: number;
  data_dir: string;
  /**
   * `store`: where the data is kept. SQLite: the database file with its write-ahead log
   * (`wal_bytes`, counted in `size_bytes` too). PostgreSQL: the database's size as the server
   * counts it; `wal_bytes` null, its write-ahead log being the server's, for all its databases.
   */
  database: { store: "sqlite" | "postgresql"; size_bytes: number; wal_bytes: number | null };
  /** The file system holding the data directory: `low` below PARLEY_DISK_LOW_MB, `full` when changes fail. */
  disk: { free_bytes: number; size_bytes: number; full: boolean; low: boolean };
  uploads: { files: number; size_bytes: number };
  counts: { users: number; bots: number; channels: number; messages: number };
  event_queues: QueueFigures;
  outbox: { pending: number; failed: number; by_kind: Record<string, number> };
  /** The latest scheduled backups that worked and that failed (times in UNIX seconds). */
  backups: {
    last_success: { finished_at: number; file: string; size_bytes: number } | null;
    last_failure: { finished_at: number; error: string } | null;
  };
  /** Newest first. */
  recent_warnings: LoggedWarning[];
}

export async function getServerStatus(user: User): Promise<ServerStatus> {
  requireAdministrator(user, "see the server's status");
  const stored = await read(async (db) => {
    return { dataDir: dataDirOf(db), database: await databaseFigures(db), counts: await countStored(db), pending: await countPendingOutbox(db), backups: await backupRunSummary(db) };
  });
  const now = Math.floor(Date.now() / 1000);
  const byKind = Object.fromEntries(stored.pending);
  const { lastSuccess: success, lastFailure: failure } = stored.backups;
  return {
    version: SERVER_VERSION,
    feature_level: FEATURE_LEVEL,
    started_at: SERVER_GENERATION,
    uptime_seconds: Math.max(0, now - SERVER_GENERATION),
    data_dir: stored.dataDir,
    database: { store: stored.database.store, size_bytes: stored.database.sizeBytes, wal_bytes: stored.database.walBytes },
    disk: dataDiskFigures(stored.dataDir),
    uploads: { files: stored.counts.uploadFiles, size_bytes: stored.counts.uploadBytes },
    counts: { users: stored.counts.users, bots: stored.counts.bots, channels: stored.counts.channels, messages: stored.counts.messages },
    event_queues: queueFigures(),
    outbox: { pending: Object.values(byKind).reduce((sum, n) => sum + n, 0), failed: stored.counts.outboxGivenUp, by_kind: byKind },
    backups: {
      last_success: success ? { finished_at: success.finishedAt, file: success.file ?? "", size_bytes: success.bytes ?? 0 } : null,
      last_failure: failure ? { finished_at: failure.finishedAt, error: failure.error ?? "" } : null,
    },
    recent_warnings: recentWarnings(),
  };
}
