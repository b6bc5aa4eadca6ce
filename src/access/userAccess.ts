import { isUserInGroup } from "../db/userGroups";
import { getRealm, type Realm } from "../db/realm";
import type { Reader } from "../db/types";
import { activeUserRoles, type User } from "../db/users";
import { isGuest } from "../model/roles";

/**
 * Who may see whom (the realm's can_access_all_users_group). Only guests can be restricted:
 * the setting is role:everyone or role:members. A restricted guest sees themselves and bots;
 * the channels and messages features widen this to people who share a channel or a direct
 * message conversation with them, here, so every caller gets the same answer.
 */

export async function canAccessAllUsers(db: Reader, viewer: Pick<User, "id" | "role">, realm: Realm): Promise<boolean> {
  return !isGuest(viewer.role) || await isUserInGroup(db, viewer.id, realm.settings.can_access_all_users_group);
}

/** For a viewer who cannot access all users: whether they may see this one. */
export function canRestrictedViewerAccess(viewer: Pick<User, "id">, target: Pick<User, "id" | "isBot">): boolean {
  return target.isBot || target.id === viewer.id;
}

export async function canAccessUser(db: Reader, viewer: Pick<User, "id" | "role">, target: Pick<User, "id" | "isBot">, realm: Realm): Promise<boolean> {
  return canRestrictedViewerAccess(viewer, target) || await canAccessAllUsers(db, viewer, realm);
}

/** Active users split by whether they may see `target`: the audience of events about it. */
export async function splitAudienceByAccess(db: Reader, target: Pick<User, "id" | "isBot">, realm: Realm) {
  const audience = await activeUserRoles(db);
  const seeing: Array<Pick<User, "id" | "role">> = [];
  const notSeeing: Array<Pick<User, "id" | "role">> = [];
  for (const viewer of audience) ((await canAccessUser(db, viewer, target, realm)) ? seeing : notSeeing).push(viewer);
  return { seeing, notSeeing };
}

/** Active users who may see `target` (can_access_all_users_group): the audience of news about them. */
export async function usersWhoCanSee(db: Reader, target: User): Promise<number[]> {
  return (await splitAudienceByAccess(db, target, await getRealm(db))).seeing.map((viewer) => viewer.id);
}
