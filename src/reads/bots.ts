import { accessBot, requireHumanMember } from "../access/users";
import { getRealm } from "../db/realm";
import { read } from "../db/transaction";
import { findBotService, listBotsOwnedBy, type User } from "../db/users";
import { botToApi, botZuliprc, type ApiBot } from "../shapes/users";

/** GET /bots: the caller's own active bots (administrators too see only theirs here, as in the original). */
export function listOwnBots(viewer: User): ApiBot[] {
  requireHumanMember(viewer, "own bots");
  return read((db) => listBotsOwnedBy(db, viewer.id, { activeOnly: true }).map((bot) => botToApi(bot, findBotService(db, bot.id))));
}

/** GET /bots/{id}/zuliprc: the configuration file for the bot's owner or an administrator. */
export function getBotConfigurationFile(viewer: User, botId: number): string {
  return read((db) => {
    const bot = accessBot(db, viewer, botId);
    return botZuliprc(bot, getRealm(db).url, findBotService(db, bot.id));
  });
}
