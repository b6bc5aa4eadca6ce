import { findGroupById, type UserGroup } from "../db/userGroups";
import { getRealm } from "../db/realm";
import type { Reader } from "../db/types";
import { activeUserIds, type User } from "../db/users";
import { badRequest } from "../http/errors";
import type { GroupSettingRules } from "../model/groupSetting";
import type { RealmGroupSettingName } from "../model/realmSettings";
import { USER_GROUP_SETTINGS, type UserGroupSettingName } from "../model/userGroupSettings";
import { groupIdsOfUser, holdsPermission } from "./groupSettings";
import { listUserGroupsForApi } from "../shapes/userGroups";
import { requireHumanMember } from "./users";

/**
 * Who may see and change user groups. Reading is for members (the reference refuses guests
 * and bots). Changing a group needs the realm's can_manage_all_groups, the group's own
 * can_manage_group (which grants everything), or the one setting the change names.
 * System groups follow roles and are never changed by hand.
 */

/** Realm-level group permissions allow neither role:everyone nor, so, guests. */
export const REALM_GROUP_SETTING_RULES: GroupSettingRules = { allowInternet: false, allowNobody: false, allowEveryone: false };

export async function holdsRealmGroupPermission(db: Reader, user: User, setting: RealmGroupSettingName, userGroupIds?: Set<number>): Promise<boolean> {
  const groupIds = userGroupIds ?? (await groupIdsOfUser(db, user.id));
  return holdsPermission(user, (await getRealm(db)).settings[setting], REALM_GROUP_SETTING_RULES, groupIds);
}

/** A named group (system or not, active or not); anything else is "Invalid user group". */
async function namedGroup(db: Reader, groupId: number): Promise<UserGroup> {
  const group = await findGroupById(db, groupId);
  if (!group || group.name === null) throw badRequest("Invalid user group");
  return group;
}

export async function listUserGroupsToRead(db: Reader, user: User, includeDeactivated: boolean) {
  requireHumanMember(user, "view user groups");
  return listUserGroupsForApi(db, { includeDeactivated });
}

export async function accessUserGroupToRead(db: Reader, user: User, groupId: number): Promise<UserGroup> {
  requireHumanMember(user, "view user groups");
  return namedGroup(db, groupId);
}

/**
 * A group the user may change in a way any of `permissions` allows (managers always may).
 * Deactivated groups stay editable, as the reference allows since feature level 340.
 */
export async function accessUserGroupForUpdate(db: Reader, user: User, groupId: number, permissions: UserGroupSettingName[] = []): Promise<UserGroup> {
  const group = await namedGroup(db, groupId);
  if (group.isSystemGroup) throw badRequest("Insufficient permission");
  const userGroupIds = await groupIdsOfUser(db, user.id);
  if (await holdsRealmGroupPermission(db, user, "can_manage_all_groups", userGroupIds)) return group;
  const holds = (setting: UserGroupSettingName) => {
    const groupId = group[USER_GROUP_SETTINGS[setting].column];
    return groupId !== null && holdsPermission(user, groupId, USER_GROUP_SETTINGS[setting].rules, userGroupIds);
  };
  if (holds("can_manage_group") || permissions.some(holds)) return group;
  throw badRequest("Insufficient permission");
}

/** Who hears about user groups: every active account, as all of them hold realm_user_groups. */
export async function userGroupAudience(db: Reader): Promise<number[]> {
  return activeUserIds(db);
}

/** Of these user IDs, those of active accounts: a deactivated user's memberships are hidden. */
export { activeUserIdsAmong } from "../db/users";
