import { and, asc, eq, sql } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { botStorage } from "./tables";
import { dialect } from "./dialect";
import { postgresTuples } from "./dialectSql";
import { runSql } from "./rawSql";
import { textList } from "./sqlLists";

export type StorageEntry = { key: string; value: string };

// A bot may name thousands of keys at once: they travel as one JSON parameter.
const theseKeys = (botId: number, keys?: string[]) =>
  keys === undefined ? eq(botStorage.botId, botId) : and(eq(botStorage.botId, botId), sql`${botStorage.key} IN ${textList(keys)}`);

/** The bot's entries, all or those with these keys (keys it lacks are simply not returned). */
export async function listBotStorage(db: Reader, botId: number, keys?: string[]): Promise<StorageEntry[]> {
  if (keys !== undefined && keys.length === 0) return [];
  return await db.select({ key: botStorage.key, value: botStorage.value }).from(botStorage).where(theseKeys(botId, keys)).orderBy(asc(botStorage.key));
}

/**
 * Characters stored, keys and values both (the reference's measure); with `keys`, only those
 * entries'. Stored text never holds NUL, before which SQLite's length() stops counting.
 */
export async function botStorageSize(db: Reader, botId: number, keys?: string[]): Promise<number> {
  if (keys !== undefined && keys.length === 0) return 0;
  const row = (await db.select({ size: sql<number | null>`sum(length(${botStorage.key}) + length(${botStorage.value}))` }).from(botStorage).where(theseKeys(botId, keys)))[0];
  return row?.size ?? 0;
}

/** Stores the entries, replacing what the keys held: one statement however many. */
export async function putBotStorage(tx: Tx, botId: number, entries: StorageEntry[]) {
  if (entries.length === 0) return;
  const json = JSON.stringify(entries.map(({ key, value }) => [key, value]));
  const rows =
    dialect() === "postgres"
      ? sql`SELECT ${botId}::bigint, key, value FROM ${postgresTuples(json, [["key", "text"], ["value", "text"]])} t`
      : sql`SELECT ${botId}, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${json})`;
  await runSql(tx, sql`INSERT INTO bot_storage (bot_id, key, value)
    ${rows} WHERE true
    ON CONFLICT (bot_id, key) DO UPDATE SET value = excluded.value`);
}

/** Removes these keys, or everything the bot stored when `keys` is undefined. */
export async function deleteBotStorage(tx: Tx, botId: number, keys?: string[]) {
  if (keys !== undefined && keys.length === 0) return;
  await tx.delete(botStorage).where(theseKeys(botId, keys));
}
