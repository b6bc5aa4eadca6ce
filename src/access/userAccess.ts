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

export function canAccessAllUsers(db: Reader, viewer: Pick<User, "id" | "role">, realm: Realm): boolean {
  return !isGuest(viewer.role) || isUserInGroup(db, viewer.id, realm.settings.can_access_all_users_group);
}

/** For a viewer who cannot access all users: whether they may see this one. */
export function canRestrictedViewerAccess(viewer: Pick<User, "id">, target: Pick<User, "id" | "isBot">): boolean {
  return target.isBot || target.id === viewer.id;
}

export function canAccessUser(db: Reader, viewer: Pick<User, "id" | "role">, target: Pick<User, "id" | "isBot">, realm: Realm): boolean {
  return canRestrictedViewerAccess(viewer, target) || canAccessAllUsers(db, viewer, realm);
}

/** Active users split by whether they may see `target`: the audience of events about it. */
export function splitAudienceByAccess(db: Reader, target: Pick<User, "id" | "isBot">, realm: Realm) {
  const audience = activeUserRoles(db);
  const seeing: Array<Pick<User, "id" | "role">> = [];
  const notSeeing: Array<Pick<User, "id" | "role">> = [];
  for (const viewer of audience) (canAccessUser(db, viewer, target, realm) ? seeing : notSeeing).push(viewer);
  return { seeing, notSeeing };
}

/** Active users who may see `target` (can_access_all_users_group): the audience of news about them. */
export function usersWhoCanSee(db: Reader, target: User): number[] {
  return splitAudienceByAccess(db, target, getRealm(db)).seeing.map((viewer) => viewer.id);
}
