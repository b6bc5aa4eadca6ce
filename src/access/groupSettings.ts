import { groupsContainingUser } from "../db/userGroupMembership";
import { findGroupById, systemGroupsByName } from "../db/userGroups";
import type { Reader } from "../db/types";
import { findUserById, type User } from "../db/users";
import { badRequest } from "../http/errors";
import { type GroupSettingRules, type GroupSettingValue, isAnonymousSetting } from "../model/groupSetting";
import { SystemGroup, isGuest } from "../model/roles";
import { groupSettingApiValue, sameGroupSettingValue } from "../shapes/groupSettings";

/**
 * Group-setting values (spec convention 7) in and out, for any setting of any object:
 * checking a value a client sent, storing it as a group ID, showing a stored ID again, and
 * answering "does this user hold the permission". An anonymous value is kept as an unnamed
 * group that belongs to exactly one setting of one object.
 */

/** The groups a user is in, directly or through subgroups, named and unnamed. */
export async function groupIdsOfUser(db: Reader, userId: number): Promise<Set<number>> {
  return groupsContainingUser(db, userId);
}

/** Whether a user holds a permission stored as `groupId`, given the groups they are in. */
export function holdsPermission(user: Pick<User, "role">, groupId: number, rules: GroupSettingRules, groupIdsOfUser: Set<number>): boolean {
  if (!rules.allowEveryone && isGuest(user.role)) return false;
  return groupIdsOfUser.has(groupId);
}

/**
 * Checks a value a client sent for a setting and returns it in canonical form: an object with
 * no users and one group is that group's ID, an empty object is role:nobody. Throws
 * BAD_REQUEST naming the problem.
 */
export async function checkGroupSettingValue(db: Reader, setting: string, value: GroupSettingValue, rules: GroupSettingRules): Promise<GroupSettingValue> {
  const canonical = await canonicalGroupSettingValue(db, value);
  if (!isAnonymousSetting(canonical)) {
    const group = await usableNamedGroup(db, canonical);
    if (rules.requireSystemGroup && !group.isSystemGroup) throw badRequest(`'${setting}' must be a system user group.`);
    const forbidden =
      (!rules.allowInternet && group.name === SystemGroup.INTERNET) ||
      (!rules.allowNobody && group.name === SystemGroup.NOBODY) ||
      (!rules.allowEveryone && group.name === SystemGroup.EVERYONE) ||
      (rules.allowOwners === false && group.name === SystemGroup.OWNERS);
    if (forbidden && group.isSystemGroup) throw badRequest(`'${setting}' setting cannot be set to '${group.name}' group.`);
    return canonical;
  }
  if (rules.requireSystemGroup) throw badRequest(`'${setting}' must be a system user group.`);
  for (const userId of canonical.direct_members) {
    if (!(await findUserById(db, userId))?.isActive) throw badRequest(`Invalid user ID: ${userId}`);
  }
  for (const groupId of canonical.direct_subgroups) await usableNamedGroup(db, groupId);
  return canonical;
}

/**
 * A `{new, old}` update (spec 4.7) of a setting now stored as `currentGroupId`: refuses a
 * stale `old`, so two people editing at once do not silently overwrite each other, and
 * returns the checked new value, or null when it equals the current one.
 */
export async function checkGroupSettingUpdate(
  db: Reader,
  setting: string,
  update: { new: GroupSettingValue; old?: GroupSettingValue },
  currentGroupId: number,
  rules: GroupSettingRules,
): Promise<GroupSettingValue | null> {
  const current = await groupSettingApiValue(db, currentGroupId);
  if (update.old !== undefined && !sameGroupSettingValue(await canonicalGroupSettingValue(db, update.old), current)) {
    throw badRequest("'old' value does not match the expected value.");
  }
  if (sameGroupSettingValue(await canonicalGroupSettingValue(db, update.new), current)) return null;
  return checkGroupSettingValue(db, setting, update.new, rules);
}

/** The one spelling of a value: sorted, deduplicated, and collapsed to an ID where possible. */
export async function canonicalGroupSettingValue(db: Reader, value: GroupSettingValue): Promise<GroupSettingValue> {
  if (!isAnonymousSetting(value)) return value;
  const direct_members = [...new Set(value.direct_members)].sort((a, b) => a - b);
  const direct_subgroups = [...new Set(value.direct_subgroups)].sort((a, b) => a - b);
  if (direct_members.length === 0 && direct_subgroups.length === 1) return direct_subgroups[0];
  if (direct_members.length === 0 && direct_subgroups.length === 0) return systemGroupId(db, SystemGroup.NOBODY);
  return { direct_members, direct_subgroups };
}

async function usableNamedGroup(db: Reader, groupId: number) {
  const group = await findGroupById(db, groupId);
  if (!group || group.name === null) throw badRequest(`Invalid user group ID: ${groupId}`);
  if (group.deactivated) throw badRequest(`User group ${groupId} is deactivated and cannot be used in a permission setting.`);
  return group;
}

export async function systemGroupId(db: Reader, name: string): Promise<number> {
  const group = (await systemGroupsByName(db)).get(name);
  if (!group) throw new Error(`System group ${name} is missing`);
  return group.id;
}

