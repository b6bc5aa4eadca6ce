import type { ShownPresence } from "../model/presence";
import { readConnection, writeConnection } from "./client";
import { listPresenceRows, savePresenceRows, type PresenceRow } from "./presence";
import { writeUpkeep } from "./transaction";

/**
 * Presence lives in memory: every client of every user reports it each minute, and a write
 * transaction per report would cost more than everything else those users do. The copy is
 * loaded from the presences table on first use and written back by saveUnsavedPresences(),
 * which a job calls every few seconds and at a clean stop (jobs/presenceFlush.ts), so a crash
 * forgets at most those few seconds. Nothing here is on the message send path.
 */

export interface StoredPresence {
  /** UNIX seconds of the last "active" report; 0 when the user was never reported active. */
  activeTime: number;
  /** UNIX seconds of the last report of either status. */
  connectedTime: number;
  /** The realm-wide presence counter when this entry last changed (presence_last_update_id). */
  updateId: number;
}

interface Store {
  /** The database this copy was read from (its write connection): another one (tests open several) means reloading. */
  source: unknown;
  byUser: Map<number, StoredPresence>;
  /** The realm-wide counter: the highest updateId given out. */
  lastUpdateId: number;
  /** Users whose entry changed since it was last written. */
  unsaved: Set<number>;
  /** What the last presence event about each user said (not stored: a restart starts afresh). */
  announced: Map<number, ShownPresence>;
}

let store: Store | null = null;

function current(): Store {
  const source = writeConnection();
  if (store?.source !== source) {
    const rows = listPresenceRows(readConnection());
    if (rows instanceof Promise) throw new Error("Presence is read before loadPresences() loaded it (PostgreSQL loads it when the database opens)");
    adopt(source, rows);
  }
  return store!;
}

function adopt(source: unknown, rows: PresenceRow[]) {
  {
    const byUser = new Map(rows.map((row) => [row.userId, { activeTime: row.lastActiveTime, connectedTime: row.lastConnectedTime, updateId: row.lastUpdateId }]));
    const lastUpdateId = rows.reduce((highest, row) => Math.max(highest, row.lastUpdateId), 0);
    store = { source, byUser, lastUpdateId, unsaved: new Set(), announced: new Map() };
  }
}

/** Reads the stored presence now rather than at the first report (for PostgreSQL, whose answer is awaited, it must be now). */
export async function loadPresences() {
  const source = writeConnection();
  if (store?.source === source) return;
  const rows = await listPresenceRows(readConnection());
  // A synchronous caller may have loaded it meanwhile (SQLite), and changed it since.
  if (store?.source !== source) adopt(source, rows);
}

export function storedPresence(userId: number): StoredPresence | undefined {
  return current().byUser.get(userId);
}

/** Every user's entry, deactivated users' included: readers filter by who may be listed. */
export function storedPresences(): ReadonlyMap<number, StoredPresence> {
  return current().byUser;
}

/** The user's new times, under the next value of the realm-wide counter. */
export function putPresence(userId: number, times: { activeTime: number; connectedTime: number }): StoredPresence {
  const state = current();
  const entry = { ...times, updateId: ++state.lastUpdateId };
  state.byUser.set(userId, entry);
  state.unsaved.add(userId);
  changeListener?.(userId, times);
  return entry;
}

/**
 * In a cluster, each user's presence is reported to one node (the one holding their queues),
 * which tells the others (cluster/sharedPresence.ts) so every node lists everyone's. The counter
 * is each node's own: a client asks one node for changes since its last update ID.
 */
let changeListener: ((userId: number, times: { activeTime: number; connectedTime: number }) => void) | null = null;

export function onPresenceChange(listener: typeof changeListener) {
  changeListener = listener;
}

/** Another node's change: kept under this node's next update ID, and saved by the node that made it. */
export function putPresenceFromElsewhere(userId: number, times: { activeTime: number; connectedTime: number }) {
  const state = current();
  const known = state.byUser.get(userId);
  if (known && known.activeTime === times.activeTime && known.connectedTime === times.connectedTime) return;
  state.byUser.set(userId, { ...times, updateId: ++state.lastUpdateId });
}

export function announcedPresence(userId: number): ShownPresence | undefined {
  return current().announced.get(userId);
}

export function noteAnnouncedPresence(userId: number, shown: ShownPresence) {
  current().announced.set(userId, shown);
}

/** Writes every entry changed since the last call, in one transaction; returns how many. */
export async function saveUnsavedPresences(): Promise<number> {
  if (!store || store.source !== writeConnection() || store.unsaved.size === 0) return 0;
  const state = store;
  // Taken now: an entry that changes while the write waits for its turn is marked again.
  const userIds = [...state.unsaved];
  state.unsaved.clear();
  const rows: PresenceRow[] = userIds.map((userId) => {
    const entry = state.byUser.get(userId)!;
    return { userId, lastActiveTime: entry.activeTime, lastConnectedTime: entry.connectedTime, lastUpdateId: entry.updateId };
  });
  try {
    await writeUpkeep((tx) => savePresenceRows(tx, rows));
  } catch (error) {
    for (const userId of userIds) state.unsaved.add(userId);
    throw error;
  }
  return rows.length;
}
