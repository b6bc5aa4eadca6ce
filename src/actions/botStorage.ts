import { botStorageSize, deleteBotStorage, listBotStorage, putBotStorage, type StorageEntry } from "../db/botStorage";
import { write } from "../db/transaction";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { KEY_DOES_NOT_EXIST, requireBot } from "../reads/botStorage";

/**
 * A bot's own key-value store (python-zulip-api's update_storage / remove_storage; the
 * reference server's zerver/lib/bot_storage.py). Keys and values are strings; together a bot
 * stores at most BOT_STORAGE_LIMIT characters, the reference's default USER_STATE_SIZE_LIMIT.
 * Only bots have one. Nobody else is told of changes, so no event is sent.
 */

export const BOT_STORAGE_LIMIT = 10_000_000;
const characters = (text: string) => [...text].length;

/**
 * The `storage` parameter's JSON text as an object of strings. Decoded here rather than by an
 * ObjectString schema, which turns text that is not JSON into an object of its characters.
 */
function parseStorage(text: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest("Argument 'storage' is not valid JSON.", { var_name: "storage" });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest("'storage' must be an object", { var_name: "storage" });
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== "string") throw badRequest(`'storage[${key}]' must be a string`, { var_name: "storage" });
  }
  return value as Record<string, string>;
}

export async function updateBotStorage(bot: User, storageText: string) {
  requireBot(bot);
  const storage = parseStorage(storageText);
  const entries: StorageEntry[] = Object.entries(storage).map(([key, value]) => ({ key, value }));
  // SQLite's length(), which measures what is stored, stops at NUL; the reference's database refuses it too.
  if (entries.some(({ key, value }) => key.includes("\u0000") || value.includes("\u0000"))) throw badRequest("Keys and values must not contain null bytes.");
  const added = entries.reduce((sum, { key, value }) => sum + characters(key) + characters(value), 0);
  await write(async (tx) => {
    const keys = entries.map((entry) => entry.key);
    const size = (await botStorageSize(tx, bot.id)) - (await botStorageSize(tx, bot.id, keys)) + added;
    if (size > BOT_STORAGE_LIMIT) {
      throw badRequest(`Request exceeds storage limit by ${size - BOT_STORAGE_LIMIT} characters. The limit is ${BOT_STORAGE_LIMIT} characters.`);
    }
    await putBotStorage(tx, bot.id, entries);
  });
}

/** Removes these keys (all or nothing: one the bot lacks refuses the request), or everything. */
export async function removeBotStorage(bot: User, keys: string[] | undefined) {
  requireBot(bot);
  await write(async (tx) => {
    if (keys !== undefined) {
      const unique = [...new Set(keys)];
      if ((await listBotStorage(tx, bot.id, unique)).length < unique.length) throw badRequest(KEY_DOES_NOT_EXIST);
    }
    await deleteBotStorage(tx, bot.id, keys);
  });
}
