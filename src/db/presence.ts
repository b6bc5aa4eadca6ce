import { integer, sqliteTable } from "drizzle-orm/sqlite-core";
import type { Reader, UpkeepTx } from "./types";
import { users } from "./users";

/**
 * The last time each user's clients reported them active or merely connected. Presence is kept
 * in memory while the server runs and written here lazily, so a restart forgets at most the
 * last few seconds and the send path never touches it.
 */
export const presences = sqliteTable("presences", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id),
  /** UNIX seconds of the last report with status "active"; 0 when never active. */
  lastActiveTime: integer("last_active_time").notNull(),
  /** UNIX seconds of the last report of any status. */
  lastConnectedTime: integer("last_connected_time").notNull(),
  /** The realm-wide presence counter when this row last changed (presence_last_update_id). */
  lastUpdateId: integer("last_update_id").notNull(),
});

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
    tx.insert(presences).values(row).onConflictDoUpdate({ target: presences.userId, set: changes }).run();
  }
}
