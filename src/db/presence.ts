import { rawStatement } from "./prepared";
import type { UpkeepTx } from "./types";
import { presences } from "./tables";

export type PresenceRow = typeof presences.$inferSelect;

const allPresenceRows = rawStatement<PresenceRow, []>(
  'SELECT user_id AS "userId", last_active_time AS "lastActiveTime", last_connected_time AS "lastConnectedTime", last_update_id AS "lastUpdateId" FROM presences',
);

/**
 * Every stored row: the in-memory copy (db/presenceStore.ts) starts from these, read on the
 * bare read connection. SQLite answers at once, which lets the copy load on first use from
 * synchronous callers; PostgreSQL's answer is awaited when the database is opened.
 */
export function listPresenceRows(connection: object): PresenceRow[] | Promise<PresenceRow[]> {
  return allPresenceRows(connection).all();
}

/** Writes the given users' current presence, replacing what was stored. */
export async function savePresenceRows(tx: UpkeepTx, rows: PresenceRow[]) {
  for (const row of rows) {
    const { userId: _userId, ...changes } = row;
    await tx.insert(presences).values(row).onConflictDoUpdate({ target: presences.userId, set: changes });
  }
}
