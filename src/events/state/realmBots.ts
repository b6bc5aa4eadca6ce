import type { Reader } from "../../db/types";
import { findBotService, listRealmBots } from "../../db/users";
import { isAdministrator } from "../../model/roles";
import { botToApi } from "../../shapes/users";
import type { UserStateContext } from "./context";

/** realm_bots: the bots the viewer administers, deactivated ones included (all of them for administrators). */
export function realmBotState(db: Reader, { viewer }: UserStateContext) {
  const bots = listRealmBots(db, isAdministrator(viewer.role) ? {} : { ownerId: viewer.id });
  return { realm_bots: bots.map((bot) => botToApi(bot, findBotService(db, bot.id))) };
}
