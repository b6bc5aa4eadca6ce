import type { Reader } from "../db/types";
import { findUserById, type User } from "../db/users";
import { badRequest } from "../http/errors";
import { isAdministrator } from "../model/roles";

/** Refuses anyone below organization administrator, saying what they tried to do. */
export function requireAdministrator(actor: User, action: string) {
  if (!isAdministrator(actor.role)) throw badRequest(`Only organization administrators can ${action}.`);
}

/** A user (or bot) by ID; unknown IDs are BAD_REQUEST "No such user". */
export function accessUser(db: Reader, userId: number, options: { allowDeactivated?: boolean; allowBots?: boolean } = {}): User {
  const user = findUserById(db, userId);
  if (!user || (!options.allowDeactivated && !user.isActive)) throw badRequest("No such user");
  if (user.isBot && options.allowBots === false) throw badRequest("No such user");
  return user;
}
