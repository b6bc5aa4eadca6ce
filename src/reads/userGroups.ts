import { accessUserGroupToRead, activeUserIdsAmong, listUserGroupsToRead } from "../access/userGroups";
import { accessUser } from "../access/users";
import { directMemberIds, directSubgroupIds, groupsWithSubgroups, isUserInGroup, recursiveMemberIds } from "../db/userGroups";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import type { ApiUserGroup } from "../shapes/userGroups";

/** GET /user_groups. */
export const listUserGroups = (viewer: User, includeDeactivated: boolean): Promise<ApiUserGroup[]> => read((db) => listUserGroupsToRead(db, viewer, includeDeactivated));

/** GET /user_groups/{id}/members: the group's active members, direct or through subgroups. */
export function listUserGroupMembers(viewer: User, groupId: number, directOnly: boolean): Promise<number[]> {
  return read(async (db) => {
    const group = await accessUserGroupToRead(db, viewer, groupId);
    const ids = directOnly ? await directMemberIds(db, group.id) : await recursiveMemberIds(db, group.id);
    const active = await activeUserIdsAmong(db, ids);
    return ids.filter((id) => active.has(id));
  });
}

/** GET /user_groups/{id}/members/{user_id}. */
export function isUserGroupMember(viewer: User, groupId: number, userId: number, directOnly: boolean): Promise<boolean> {
  return read(async (db) => {
    const group = await accessUserGroupToRead(db, viewer, groupId);
    const target = await accessUser(db, userId);
    return directOnly ? (await directMemberIds(db, group.id)).includes(target.id) : await isUserInGroup(db, target.id, group.id);
  });
}

/** GET /user_groups/{id}/subgroups: direct ones, or those at any depth without the group itself. */
export function listUserGroupSubgroups(viewer: User, groupId: number, directOnly: boolean): Promise<number[]> {
  return read(async (db) => {
    const group = await accessUserGroupToRead(db, viewer, groupId);
    if (directOnly) return await directSubgroupIds(db, group.id);
    return [...(await groupsWithSubgroups(db, [group.id]))].filter((id) => id !== group.id).sort((a, b) => a - b);
  });
}
