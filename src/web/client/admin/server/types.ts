/** GET /server/status, as src/reads/serverStatus.ts answers it. */
export interface ServerStatus {
  version: string;
  feature_level: number;
  started_at: number;
  uptime_seconds: number;
  data_dir: string;
  database: { store: "sqlite" | "postgresql"; size_bytes: number; wal_bytes: number | null };
  disk: { free_bytes: number; size_bytes: number; full: boolean; low: boolean };
  uploads: { files: number; size_bytes: number };
  counts: { users: number; bots: number; channels: number; messages: number };
  event_queues: { queues: number; clients_polling: number; events_pending: number; events_published: number };
  outbox: { pending: number; failed: number; by_kind: Record<string, number> };
  backups: {
    last_success: { finished_at: number; file: string; size_bytes: number } | null;
    last_failure: { finished_at: number; error: string } | null;
  };
  recent_warnings: LoggedWarning[];
}

export interface LoggedWarning {
  time: number;
  level: "warn" | "error";
  message: string;
}
