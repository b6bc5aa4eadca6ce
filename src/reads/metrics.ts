import { backupRunSummary } from "../db/backupRuns";
import { diskSpaceOf } from "../db/diskSpace";
import { countPendingOutbox } from "../db/outbox";
import { messagesCommittedSinceStart, read } from "../db/transaction";
import { queueFigures } from "../events/registry";
import { Exposition, writeEventLoopMetrics, writeRequestMetrics } from "../http/metrics";
import { SERVER_VERSION } from "../version";
import { dataDirOf } from "./health";

/**
 * GET /metrics (routes/metrics.ts): the server's figures in the Prometheus text format. Apart
 * from the request counters (http/metrics.ts) and the count of messages stored, everything here
 * is read from the state the server keeps anyway, when it is scraped: nothing is counted on
 * the send path for it.
 */

// When the process started, in UNIX seconds (performance.timeOrigin is its start in ms).
const processStart = performance.timeOrigin / 1000;

export async function getMetricsText(): Promise<string> {
  const queues = queueFigures();
  const { outboxPending, backups, dataDir } = await read(async (db) => ({
    outboxPending: [...(await countPendingOutbox(db)).values()].reduce((sum, count) => sum + count, 0),
    backups: await backupRunSummary(db),
    dataDir: dataDirOf(db),
  }));
  const disk = diskSpaceOf(dataDir);
  const out = new Exposition();
  out.single("parley_up", "gauge", "1 while the server answers.", 1);
  out.metric("parley_build_info", "gauge", "The running version, as a label; the value is always 1.").sample("parley_build_info", 1, { version: SERVER_VERSION });
  writeRequestMetrics(out);
  writeEventLoopMetrics(out);
  out.single("parley_event_queues", "gauge", "Event queues registered by clients and not yet expired.", queues.queues);
  out.single("parley_event_queue_polls", "gauge", "Long-polls waiting for events now.", queues.clients_polling);
  out.single("parley_events_pending", "gauge", "Events held in queues, not yet acknowledged by their clients.", queues.events_pending);
  out.single("parley_events_pushed_total", "counter", "Events published to the queues since the server started (one per change, however many queues it reached).", queues.events_published);
  out.single("parley_messages_sent_total", "counter", "Messages stored since the server started: sent by people and bots, scheduled, and the server's own notices.", messagesCommittedSinceStart());
  out.single("parley_outbox_pending", "gauge", "E-mails and outgoing webhook calls waiting in the outbox to be delivered or tried again.", outboxPending);
  // 0 until the first scheduled backup: "time() - this > 2 days" alerts on a server that never backed up too.
  out.single("parley_backup_last_success_timestamp_seconds", "gauge", "When the latest scheduled backup was written (UNIX seconds; 0 if none yet).", backups.lastSuccess?.finishedAt ?? 0);
  out.single("parley_backup_last_failure_timestamp_seconds", "gauge", "When the latest scheduled backup failed or was skipped (UNIX seconds; 0 if none).", backups.lastFailure?.finishedAt ?? 0);
  out.single("parley_data_disk_free_bytes", "gauge", "Free space on the file system holding the data directory, as Parley may use it.", disk.freeBytes);
  out.single("parley_data_disk_size_bytes", "gauge", "Size of the file system holding the data directory.", disk.totalBytes);
  out.single("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", process.memoryUsage.rss());
  out.single("process_start_time_seconds", "gauge", "Start time of the process since the UNIX epoch in seconds.", Math.round(processStart * 1000) / 1000);
  return out.text();
}
