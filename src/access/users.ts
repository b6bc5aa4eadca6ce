import type { Reader } from "../db/types";
import { activeAdministratorIds, findUserByEmail, findUserById, type User } from "../db/users";
import { administratorRequired, badRequest } from "../http/errors";
import { isAdministrator, isGuest } from "../model/roles";
import { canSeeDeliveryEmail, userIdOfStandInEmail, type Viewer } from "../shapes/users";

/**
 * Refuses anyone below organization administrator as the reference's require_realm_admin
 * does: UNAUTHORIZED_PRINCIPAL "Must be an organization administrator" (spec 7). `action`
 * names what was refused, for readers of the call.
 */
export function requireAdministrator(actor: User, action: string) {
  void action;
  if (!isAdministrator(actor.role)) throw administratorRequired();
}

/**
 * Refuses anyone below administrator acting on another account (create, change, deactivate):
 * the reference reaches the account "for admin" and answers BAD_REQUEST, as spec 7 lists
 * "insufficient permission" under BAD_REQUEST.
 */
export function requireAccountAdministrator(actor: User, action: string) {
  if (!isAdministrator(actor.role)) throw badRequest(`Only organization administrators can ${action}.`);
}

/** Refuses bots and guests, as the original server's member-only endpoints do. */
export function requireHumanMember(actor: User, action: string) {
  if (actor.isBot) throw badRequest(`Bots cannot ${action}.`);
  if (isGuest(actor.role)) throw badRequest(`Guests cannot ${action}.`);
}

/** A user (or bot) by ID; unknown IDs are BAD_REQUEST "No such user". */
export async function accessUser(db: Reader, userId: number, options: { allowDeactivated?: boolean; allowBots?: boolean } = {}): Promise<User> {
  const user = await findUserById(db, userId);
  if (!user || (!options.allowDeactivated && !user.isActive)) throw badRequest("No such user");
  if (user.isBot && options.allowBots === false) throw badRequest("No such user");
  return user;
}

/**
 * A user by API address: either the stand-in `user{id}@{realm host}`, which always works, or
 * the real address, which works only for viewers allowed to see it (so lookups reveal nothing).
 */
export async function accessUserByEmail(db: Reader, viewer: Viewer, email: string, realmHost: string): Promise<User> {
  const standInId = userIdOfStandInEmail(email, realmHost);
  if (standInId !== null) return accessUser(db, standInId, { allowDeactivated: true });
  const user = await findUserByEmail(db, email);
  if (!user || !canSeeDeliveryEmail(viewer, user)) throw badRequest("No such user");
  return user;
}

/**
 * A bot the actor may administer: their own, or any owned bot for an organization
 * administrator. Everything else, including system bots and people, is "No such bot", so
 * the answer does not reveal which IDs are bots.
 */
export async function accessBot(db: Reader, actor: User, botId: number): Promise<User> {
  const bot = await findUserById(db, botId);
  const mayAdminister = bot !== undefined && bot.isBot && !bot.isSystemBot && (bot.botOwnerId === actor.id || isAdministrator(actor.role));
  if (!mayAdminister) throw badRequest("No such bot");
  return bot;
}

/** Who hears about a bot's administrative details (realm_bot events): its owner and the active human administrators. */
export async function botAdministratorIds(db: Reader, bot: User): Promise<number[]> {
  const ids = await activeAdministratorIds(db);
  if (bot.botOwnerId !== null) ids.push(bot.botOwnerId);
  return [...new Set(ids)];
}
