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
export async function updateUserGroupMembership(actor: User, groupId: number, changes: MembershipChanges, nothingToDo: string) {
  if (Object.values(changes).every((list) => list.length === 0)) throw badRequest(nothingToDo);
  await write(async (tx) => {
    if (changes.add.length > 0) await addMembers(tx, actor, groupId, changes.add);
    if (changes.delete.length > 0) await removeMembers(tx, actor, groupId, changes.delete);
    if (changes.addSubgroups.length > 0) await addSubgroups(tx, actor, groupId, changes.addSubgroups);
    if (changes.deleteSubgroups.length > 0) await removeSubgroups(tx, actor, groupId, changes.deleteSubgroups);
  });
}

const unique = (ids: number[]) => [...new Set(ids)];
const onlySelf = (actor: User, ids: number[]) => ids.every((id) => id === actor.id);

/** The IDs, deduplicated, if each is an active account; else "Invalid user ID". */
export async function checkActiveUserIds(db: Reader, ids: number[]): Promise<number[]> {
  const wanted = unique(ids);
  const active = await activeUserIdsAmong(db, wanted);
  const invalid = wanted.find((id) => !active.has(id));
  if (invalid !== undefined) throw badRequest(`Invalid user ID: ${invalid}`);
  return wanted;
}

/** Groups that may become subgroups: named, and not deactivated. */
export async function checkUsableSubgroups(db: Reader, ids: number[]): Promise<number[]> {
  const wanted = unique(ids);
  for (const id of wanted) {
    const group = await findGroupById(db, id);
    if (!group || group.name === null) throw badRequest(`Invalid user group ID: ${id}`);
    if (group.deactivated) throw badRequest(`User group ${id} is deactivated and cannot be a subgroup.`);
  }
  return wanted;
}

async function addMembers(tx: Tx, actor: User, groupId: number, ids: number[]) {
  const permissions: UserGroupSettingName[] = onlySelf(actor, ids) ? ["can_join_group", "can_add_members_group"] : ["can_add_members_group"];
  const group = await accessUserGroupForUpdate(tx, actor, groupId, permissions);
  const userIds = await checkActiveUserIds(tx, ids);
  const current = new Set(await directMemberIds(tx, group.id));
  const already = userIds.find((id) => current.has(id));
  if (already !== undefined) throw badRequest(`User ${already} is already a member of this group`);
  await addGroupMembers(tx, group.id, userIds);
  tx.emit({ type: "user_group", op: "add_members", group_id: group.id, user_ids: userIds }, await userGroupAudience(tx));
}

async function removeMembers(tx: Tx, actor: User, groupId: number, ids: number[]) {
  const permissions: UserGroupSettingName[] = onlySelf(actor, ids) ? ["can_leave_group", "can_remove_members_group"] : ["can_remove_members_group"];
  const group = await accessUserGroupForUpdate(tx, actor, groupId, permissions);
  const userIds = await checkActiveUserIds(tx, ids);
  const current = new Set(await directMemberIds(tx, group.id));
  const absent = userIds.find((id) => !current.has(id));
  if (absent !== undefined) throw badRequest(`There is no member '${absent}' in this user group`);
  await removeGroupMembers(tx, group.id, userIds);
  tx.emit({ type: "user_group", op: "remove_members", group_id: group.id, user_ids: userIds }, await userGroupAudience(tx));
}

async function addSubgroups(tx: Tx, actor: User, groupId: number, ids: number[]) {
  const group = await accessUserGroupForUpdate(tx, actor, groupId);
  const subgroupIds = await checkUsableSubgroups(tx, ids);
  const current = new Set(await directSubgroupIds(tx, group.id));
  const already = subgroupIds.find((id) => current.has(id));
  if (already !== undefined) throw badRequest(`User group ${already} is already a subgroup of this group.`);
  // The group below one of its new subgroups (or being one) would make a cycle.
  if ((await groupsWithSubgroups(tx, subgroupIds)).has(group.id)) throw badRequest(`User group ${group.id} is already a subgroup of one of the passed subgroups.`);
  await addDirectSubgroups(tx, group.id, subgroupIds);
  tx.emit({ type: "user_group", op: "add_subgroups", group_id: group.id, direct_subgroup_ids: subgroupIds }, await userGroupAudience(tx));
}

async function removeSubgroups(tx: Tx, actor: User, groupId: number, ids: number[]) {
  const group = await accessUserGroupForUpdate(tx, actor, groupId);
  const subgroupIds = unique(ids);
  const current = new Set(await directSubgroupIds(tx, group.id));
  for (const id of subgroupIds) {
    const subgroup = await findGroupById(tx, id);
    if (!subgroup || subgroup.name === null) throw badRequest(`Invalid user group ID: ${id}`);
    if (!current.has(id)) throw badRequest(`User group ${id} is not a subgroup of this group.`);
  }
  await removeDirectSubgroups(tx, group.id, subgroupIds);
  tx.emit({ type: "user_group", op: "remove_subgroups", group_id: group.id, direct_subgroup_ids: subgroupIds }, await userGroupAudience(tx));
}
