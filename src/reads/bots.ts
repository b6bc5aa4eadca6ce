import { accessBot, requireHumanMember } from "../access/users";
import { getRealm } from "../db/realm";
import { read } from "../db/transaction";
import { findBotService, listBotsOwnedBy, type User } from "../db/users";
import { botToApi, botZuliprc, type ApiBot } from "../shapes/users";

/** GET /bots: the caller's own active bots (administrators too see only theirs here, as in the original). */
export function listOwnBots(viewer: User): Promise<ApiBot[]> {
  requireHumanMember(viewer, "own bots");
  return read(async (db) => {
    const bots: ApiBot[] = [];
    for (const bot of await listBotsOwnedBy(db, viewer.id, { activeOnly: true })) bots.push(botToApi(bot, await findBotService(db, bot.id)));
    return bots;
  });
}

/** GET /bots/{id}/zuliprc: the configuration file for the bot's owner or an administrator. */
export function getBotConfigurationFile(viewer: User, botId: number): Promise<string> {
  return read(async (db) => {
    const bot = await accessBot(db, viewer, botId);
    return botZuliprc(bot, (await getRealm(db)).url, await findBotService(db, bot.id));
  });
}
