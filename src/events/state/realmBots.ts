import type { Reader } from "../../db/types";
import { findBotService, listRealmBots } from "../../db/users";
import { isAdministrator } from "../../model/roles";
import { botToApi } from "../../shapes/users";
import type { UserStateContext } from "./context";

/** realm_bots: the bots the viewer administers, deactivated ones included (all of them for administrators). */
export async function realmBotState(db: Reader, { viewer }: UserStateContext) {
  const bots = await listRealmBots(db, isAdministrator(viewer.role) ? {} : { ownerId: viewer.id });
  const realmBots = [];
  for (const bot of bots) realmBots.push(botToApi(bot, await findBotService(db, bot.id)));
  return { realm_bots: realmBots };
}
