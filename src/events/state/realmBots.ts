import { and, asc, eq } from "drizzle-orm";
import type { Reader } from "../../db/types";
import { findBotService, users } from "../../db/users";
import { isAdministrator } from "../../model/roles";
import { botToApi } from "../../shapes/users";
import type { UserStateContext } from "./context";

/** realm_bots: the bots the viewer administers, deactivated ones included (all of them for administrators). */
export function realmBotState(db: Reader, { viewer }: UserStateContext) {
  const administered = isAdministrator(viewer.role) ? undefined : eq(users.botOwnerId, viewer.id);
  const bots = db
    .select()
    .from(users)
    .where(and(eq(users.isBot, true), eq(users.isSystemBot, false), administered))
    .orderBy(asc(users.id))
    .all();
  return { realm_bots: bots.map((bot) => botToApi(bot, findBotService(db, bot.id))) };
}
