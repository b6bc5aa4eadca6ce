import { listBotStorage } from "../db/botStorage";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";

/** GET /bot_storage: a bot's own entries (all, or those named); writes are in actions/botStorage.ts. */

export const KEY_DOES_NOT_EXIST = "Key does not exist.";
export const BOTS_ONLY = "This endpoint is only available to bots.";

/** Only bots have a store; the reference keys it by user but only bots' libraries use it. */
export function requireBot(user: User) {
  if (!user.isBot) throw badRequest(BOTS_ONLY);
}

/** The named entries, all of which must exist (as the reference), or every entry. */
export function getBotStorage(bot: User, keys: string[] | undefined): Promise<Record<string, string>> {
  requireBot(bot);
  return read(async (db) => {
    const unique = keys === undefined ? undefined : [...new Set(keys)];
    const entries = await listBotStorage(db, bot.id, unique);
    if (unique !== undefined && entries.length < unique.length) throw badRequest(KEY_DOES_NOT_EXIST);
    // A null-prototype object: a key such as "__proto__" is an entry like any other.
    const storage: Record<string, string> = Object.create(null);
    for (const { key, value } of entries) storage[key] = value;
    return storage;
  });
}
