import type { Reader, UpkeepTx } from "./types";
import { presences } from "./tables";

export type PresenceRow = typeof presences.$inferSelect;

/**
 * Every stored row: the in-memory copy (db/presenceStore.ts) starts from these. Synchronous
 * while that copy is loaded on first use, by synchronous callers, on the bare read connection.
 */
export function listPresenceRows(db: Reader): PresenceRow[] {
  return db.select().from(presences).all();
}

/** Writes the given users' current presence, replacing what was stored. */
export async function savePresenceRows(tx: UpkeepTx, rows: PresenceRow[]) {
  for (const row of rows) {
    const { userId: _userId, ...changes } = row;
    await tx.insert(presences).values(row).onConflictDoUpdate({ target: presences.userId, set: changes });
  }
}
