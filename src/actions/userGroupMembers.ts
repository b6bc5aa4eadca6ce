import { accessUserGroupForUpdate, activeUserIdsAmong, userGroupAudience } from "../access/userGroups";
import {
  addGroupMembers,
  addDirectSubgroups,
  directMemberIds,
  directSubgroupIds,
  findGroupById,
  groupsWithSubgroups,
  removeGroupMembers,
  removeDirectSubgroups,
} from "../db/userGroups";
import { write } from "../db/transaction";
import type { Reader, Tx } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import type { UserGroupSettingName } from "../model/userGroupSettings";

/**
 * Changing who is in a user group. Adding others needs can_add_members_group, removing them
 * can_remove_members_group; adding or removing only oneself is also allowed by
 * can_join_group or can_leave_group. Subgroups need can_manage_group. Managers may do all.
 */

export interface MembershipChanges {
  add: number[];
  delete: number[];
  addSubgroups: number[];
  deleteSubgroups: number[];
}

/** POST /user_groups/{id}/members (and /subgroups): additions first, then removals, all or nothing. */
export function updateUserGroupMembership(actor: User, groupId: number, changes: MembershipChanges, nothingToDo: string) {
  if (Object.values(changes).every((list) => list.length === 0)) throw badRequest(nothingToDo);
  write((tx) => {
    if (changes.add.length > 0) addMembers(tx, actor, groupId, changes.add);
    if (changes.delete.length > 0) removeMembers(tx, actor, groupId, changes.delete);
    if (changes.addSubgroups.length > 0) addSubgroups(tx, actor, groupId, changes.addSubgroups);
    if (changes.deleteSubgroups.length > 0) removeSubgroups(tx, actor, groupId, changes.deleteSubgroups);
  });
}

const unique = (ids: number[]) => [...new Set(ids)];
const onlySelf = (actor: User, ids: number[]) => ids.every((id) => id === actor.id);

/** The IDs, deduplicated, if each is an active account; else "Invalid user ID". */
export function checkActiveUserIds(db: Reader, ids: number[]): number[] {
  const wanted = unique(ids);
  const active = activeUserIdsAmong(db, wanted);
  const invalid = wanted.find((id) => !active.has(id));
  if (invalid !== undefined) throw badRequest(`Invalid user ID: ${invalid}`);
  return wanted;
}

/** Groups that may become subgroups: named, and not deactivated. */
export function checkUsableSubgroups(db: Reader, ids: number[]): number[] {
  const wanted = unique(ids);
  for (const id of wanted) {
    const group = findGroupById(db, id);
    if (!group || group.name === null) throw badRequest(`Invalid user group ID: ${id}`);
    if (group.deactivated) throw badRequest(`User group ${id} is deactivated and cannot be a subgroup.`);
  }
  return wanted;
}

function addMembers(tx: Tx, actor: User, groupId: number, ids: number[]) {
  const permissions: UserGroupSettingName[] = onlySelf(actor, ids) ? ["can_join_group", "can_add_members_group"] : ["can_add_members_group"];
  const group = accessUserGroupForUpdate(tx, actor, groupId, permissions);
  const userIds = checkActiveUserIds(tx, ids);
  const current = new Set(directMemberIds(tx, group.id));
  const already = userIds.find((id) => current.has(id));
  if (already !== undefined) throw badRequest(`User ${already} is already a member of this group`);
  addGroupMembers(tx, group.id, userIds);
  tx.emit({ type: "user_group", op: "add_members", group_id: group.id, user_ids: userIds }, userGroupAudience(tx));
}

function removeMembers(tx: Tx, actor: User, groupId: number, ids: number[]) {
  const permissions: UserGroupSettingName[] = onlySelf(actor, ids) ? ["can_leave_group", "can_remove_members_group"] : ["can_remove_members_group"];
  const group = accessUserGroupForUpdate(tx, actor, groupId, permissions);
  const userIds = checkActiveUserIds(tx, ids);
  const current = new Set(directMemberIds(tx, group.id));
  const absent = userIds.find((id) => !current.has(id));
  if (absent !== undefined) throw badRequest(`There is no member '${absent}' in this user group`);
  removeGroupMembers(tx, group.id, userIds);
  tx.emit({ type: "user_group", op: "remove_members", group_id: group.id, user_ids: userIds }, userGroupAudience(tx));
}

function addSubgroups(tx: Tx, actor: User, groupId: number, ids: number[]) {
  const group = accessUserGroupForUpdate(tx, actor, groupId);
  const subgroupIds = checkUsableSubgroups(tx, ids);
  const current = new Set(directSubgroupIds(tx, group.id));
  const already = subgroupIds.find((id) => current.has(id));
  if (already !== undefined) throw badRequest(`User group ${already} is already a subgroup of this group.`);
  // The group below one of its new subgroups (or being one) would make a cycle.
  if (groupsWithSubgroups(tx, subgroupIds).has(group.id)) throw badRequest(`User group ${group.id} is already a subgroup of one of the passed subgroups.`);
  addDirectSubgroups(tx, group.id, subgroupIds);
  tx.emit({ type: "user_group", op: "add_subgroups", group_id: group.id, direct_subgroup_ids: subgroupIds }, userGroupAudience(tx));
}

function removeSubgroups(tx: Tx, actor: User, groupId: number, ids: number[]) {
  const group = accessUserGroupForUpdate(tx, actor, groupId);
  const subgroupIds = unique(ids);
  const current = new Set(directSubgroupIds(tx, group.id));
  for (const id of subgroupIds) {
    const subgroup = findGroupById(tx, id);
    if (!subgroup || subgroup.name === null) throw badRequest(`Invalid user group ID: ${id}`);
    if (!current.has(id)) throw badRequest(`User group ${id} is not a subgroup of this group.`);
  }
  removeDirectSubgroups(tx, group.id, subgroupIds);
  tx.emit({ type: "user_group", op: "remove_subgroups", group_id: group.id, direct_subgroup_ids: subgroupIds }, userGroupAudience(tx));
}
