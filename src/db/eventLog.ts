import { sql } from "drizzle-orm";
import type { Emitted } from "./types";
import { runSql, sqlValues } from "./rawSql";

/**
 * The cluster's event log (PostgreSQL only; table parley_cluster.event_log, a hand-written migration):
 * every write transaction's events, appended in the same transaction just before it commits.
 * Writes take turns across nodes (an advisory lock, db/transaction.ts), so IDs follow commit
 * order, and a row's ID being visible means every smaller ID has committed or rolled back. It
 * is the transactional outbox of the bus (cluster/): a node that dies between its COMMIT and
 * its publish loses nothing, since the others read what they missed here.
 *
 * `batch` is the events as text (encodeBatch): read only by other nodes, never queried.
 * `invalidates`: the transaction may have changed what nodes keep cached (db/caches.ts).
 */

export interface LoggedBatch {
  id: number;
  node: string;
  invalidates: boolean;
  batch: string;
}

export async function appendToEventLog(tx: object, node: string, invalidates: boolean, batch: string): Promise<number> {
  const [[id]] = await sqlValues<[number]>(tx, sql`INSERT INTO parley_cluster.event_log (node, invalidates, batch, logged_at) VALUES (${node}, ${invalidates}, ${batch}, ${Math.floor(Date.now() / 1000)}) RETURNING id`);
  return id;
}

/** The rows after `afterId` (and before `beforeId`, when given), oldest first, at most `limit`. */
export async function eventLogAfter(db: object, afterId: number, beforeId: number | null, limit = 1000): Promise<LoggedBatch[]> {
  const rows = await sqlValues<[number, string, boolean, string]>(
    db,
    sql`SELECT id, node, invalidates, batch FROM parley_cluster.event_log WHERE id > ${afterId} ${beforeId === null ? sql`` : sql`AND id < ${beforeId}`} ORDER BY id LIMIT ${limit}`,
  );
  return rows.map(([id, node, invalidates, batch]) => ({ id, node, invalidates, batch }));
}

/** The cluster's identity, made with the database (migration postgres/0004): its name on the bus. */
export async function clusterIdentity(db: object): Promise<string> {
  const [[id]] = await sqlValues<[string]>(db, sql`SELECT id FROM parley_cluster.identity`);
  return id;
}

/** The newest row's ID (0 when there is none). */
export async function newestEventLogId(db: object): Promise<number> {
  const [[id]] = await sqlValues<[number | null]>(db, sql`SELECT max(id) FROM parley_cluster.event_log`);
  return id ?? 0;
}

/** Drops rows older than `seconds`: nodes read the log only to fill a gap of a moment, or at start. */
export async function pruneEventLog(tx: object, seconds: number) {
  await runSql(tx, sql`DELETE FROM parley_cluster.event_log WHERE logged_at < ${Math.floor(Date.now() / 1000) - seconds}`);
}

// Events are plain JSON; their delivery options hold a Map and a Set (DeliveryOptions), written
// as arrays and made again when read. Every node reads every row: no reviver walks the events.
type Options = NonNullable<Emitted["options"]>;
type WrittenOptions = Omit<Options, "flagsByUser" | "addressedElsewhere"> & { flagsByUser?: Array<[number, string[]]>; addressedElsewhere?: number[] };

export const encodeBatch = (batch: Emitted[]): string =>
  JSON.stringify(
    batch.map(({ options, ...rest }) => {
      if (!options) return rest;
      const written: WrittenOptions = { ...options, flagsByUser: options.flagsByUser && [...options.flagsByUser], addressedElsewhere: options.addressedElsewhere && [...options.addressedElsewhere] };
      return { ...rest, options: written };
    }),
  );

export const decodeBatch = (text: string): Emitted[] =>
  (JSON.parse(text) as Array<Omit<Emitted, "options"> & { options?: WrittenOptions }>).map(({ options, ...rest }) => {
    if (!options) return rest as Emitted;
    const read: Options = { ...options, flagsByUser: options.flagsByUser && new Map(options.flagsByUser), addressedElsewhere: options.addressedElsewhere && new Set(options.addressedElsewhere) };
    return { ...rest, options: read } as Emitted;
  });
