import type { ComponentChildren } from "preact";
import { Badge } from "../../ui/components";
import { formatBytes, formatDateTime } from "../../ui/format";
import type { ServerStatus } from "./types";

/** The server's figures at a glance, one card each. */

const number = new Intl.NumberFormat();
const count = (value: number, one: string, many: string) => `${number.format(value)} ${value === 1 ? one : many}`;

/** "3 days 4 h", "2 h 5 min", "40 s": the two largest units are enough to tell how long. */
export function formatDuration(seconds: number): string {
  const units: Array<[string, number]> = [["day", 86400], ["h", 3600], ["min", 60], ["s", 1]];
  const parts: string[] = [];
  let left = Math.max(0, Math.floor(seconds));
  for (const [unit, size] of units) {
    const amount = Math.floor(left / size);
    left -= amount * size;
    if (amount > 0 || (parts.length === 0 && size === 1)) parts.push(unit === "day" ? `${amount} ${amount === 1 ? "day" : "days"}` : `${amount} ${unit}`);
    if (parts.length === 2 || (parts.length > 0 && amount === 0)) break;
  }
  return parts.join(" ");
}

const OUTBOX_KINDS: Record<string, [string, string]> = {
  invitation_email: ["invitation e-mail", "invitation e-mails"],
  account_deactivated_email: ["deactivation e-mail", "deactivation e-mails"],
  password_reset_email: ["password reset e-mail", "password reset e-mails"],
  outgoing_webhook: ["webhook notification", "webhook notifications"],
};

function outboxKinds(byKind: Record<string, number>): string | null {
  const parts = Object.entries(byKind).map(([kind, n]) => {
    const [one, many] = OUTBOX_KINDS[kind] ?? [kind.replaceAll("_", " "), kind.replaceAll("_", " ")];
    return count(n, one, many);
  });
  return parts.length > 0 ? parts.join(", ") : null;
}

function Figure(props: { label: string; value: ComponentChildren; note?: ComponentChildren }) {
  return (
    <div class="stat" role="group" aria-label={props.label}>
      <div class="stat-label">{props.label}</div>
      <div class="stat-value">{props.value}</div>
      {props.note && <div class="stat-note">{props.note}</div>}
    </div>
  );
}

export function Figures({ status }: { status: ServerStatus }) {
  const { database, disk, uploads, counts, event_queues: queues, outbox, backups } = status;
  const failedLast = backups.last_failure !== null && (backups.last_success === null || backups.last_failure.finished_at > backups.last_success.finished_at);
  return (
    <div class="stats stats-three">
      <Figure label="Version" value={status.version} note={`Feature level ${status.feature_level}`} />
      <Figure label="Uptime" value={formatDuration(status.uptime_seconds)} note={`Since ${formatDateTime(status.started_at)}`} />
      <Figure
        label="Database"
        value={formatBytes(database.size_bytes)}
        note={database.wal_bytes === null ? "On PostgreSQL" : `Including ${formatBytes(database.wal_bytes)} of write-ahead log`}
      />
      <Figure label="Uploads" value={formatBytes(uploads.size_bytes)} note={count(uploads.files, "file", "files")} />
      <Figure
        label="Free disk space"
        value={formatBytes(disk.free_bytes)}
        note={
          <>
            {`Of ${formatBytes(disk.size_bytes)} on the data directory's disk`}
            {(disk.full || disk.low) && (
              <>
                {" "}
                <Badge kind={disk.full ? "danger" : "warn"}>{disk.full ? "Full: changes are refused" : "Running low"}</Badge>
              </>
            )}
          </>
        }
      />
      <Figure label="People" value={number.format(counts.users)} note={count(counts.bots, "bot", "bots")} />
      <Figure label="Messages" value={number.format(counts.messages)} note={count(counts.channels, "channel", "channels")} />
      <Figure label="Event queues" value={number.format(queues.queues)} note={`${count(queues.clients_polling, "client", "clients")} waiting for events now`} />
      <Figure label="Events" value={number.format(queues.events_published)} note={`Published since start; ${number.format(queues.events_pending)} not yet fetched`} />
      <Figure
        label="Outbox"
        value={number.format(outbox.pending)}
        note={
          <>
            {outboxKinds(outbox.by_kind) ?? "Nothing waiting to be sent"}
            {outbox.failed > 0 && (
              <>
                {" "}
                <Badge kind="danger">{outbox.failed} given up</Badge>
              </>
            )}
          </>
        }
      />
      <Figure
        label="Last backup"
        value={backups.last_success ? formatDateTime(backups.last_success.finished_at) : "None yet"}
        note={
          <>
            {backups.last_success ? `${formatBytes(backups.last_success.size_bytes)} in ${backups.last_success.file}` : "Scheduled backups: PARLEY_BACKUP_SCHEDULE"}
            {failedLast && (
              <>
                {" "}
                <Badge kind="danger">Latest failed: {backups.last_failure!.error}</Badge>
              </>
            )}
          </>
        }
      />
    </div>
  );
}
