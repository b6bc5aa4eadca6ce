import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { primaryKey, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Reader, Tx } from "./types";
import { users } from "./users";

/** A bot's own key-value store (the bot storage API python-zulip-api's bots use). */
export const botStorage = sqliteTable(
  "bot_storage",
  {
    botId: integer("bot_id")
      .notNull()
      .references(() => users.id),
    key: text("key").notNull(),
    value: text("value").notNull(),
  },
  (table) => [primaryKey({ columns: [table.botId, table.key] })],
);

export type StorageEntry = { key: string; value: string };

/** The bot's entries, all or those with these keys (keys it lacks are simply not returned). */
export function listBotStorage(db: Reader, botId: number, keys?: string[]): StorageEntry[] {
  const where = keys === undefined ? eq(botStorage.botId, botId) : and(eq(botStorage.botId, botId), inArray(botStorage.key, keys));
  if (keys !== undefined && keys.length === 0) return [];
  return db.select({ key: botStorage.key, value: botStorage.value }).from(botStorage).where(where).orderBy(asc(botStorage.key)).all();
}

/**
 * Characters stored, keys and values both (the reference's measure); with `keys`, only those
 * entries'. Stored text never holds NUL, before which SQLite's length() stops counting.
 */
export function botStorageSize(db: Reader, botId: number, keys?: string[]): number {
  if (keys !== undefined && keys.length === 0) return 0;
  const where = keys === undefined ? eq(botStorage.botId, botId) : and(eq(botStorage.botId, botId), inArray(botStorage.key, keys));
  const row = db.select({ size: sql<number | null>`sum(length(${botStorage.key}) + length(${botStorage.value}))` }).from(botStorage).where(where).get();
  return row?.size ?? 0;
}

export function putBotStorage(tx: Tx, botId: number, entries: StorageEntry[]) {
  for (const { key, value } of entries) {
    tx.insert(botStorage).values({ botId, key, value }).onConflictDoUpdate({ target: [botStorage.botId, botStorage.key], set: { value } }).run();
  }
}

/** Removes these keys, or everything the bot stored when `keys` is undefined. */
export function deleteBotStorage(tx: Tx, botId: number, keys?: string[]) {
  if (keys !== undefined && keys.length === 0) return;
  const where = keys === undefined ? eq(botStorage.botId, botId) : and(eq(botStorage.botId, botId), inArray(botStorage.key, keys));
  tx.delete(botStorage).where(where).run();
}
