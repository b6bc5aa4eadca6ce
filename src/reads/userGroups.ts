import { accessUserGroupToRead, activeUserIdsAmong, listUserGroupsToRead } from "../access/userGroups";
import { accessUser } from "../access/users";
import { directMemberIds, directSubgroupIds, groupsWithSubgroups, isUserInGroup, recursiveMemberIds } from "../db/userGroups";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import type { ApiUserGroup } from "../shapes/userGroups";

/** GET /user_groups. */
export const listUserGroups = (viewer: User, includeDeactivated: boolean): ApiUserGroup[] => read((db) => listUserGroupsToRead(db, viewer, includeDeactivated));

/** GET /user_groups/{id}/members: the group's active members, direct or through subgroups. */
export function listUserGroupMembers(viewer: User, groupId: number, directOnly: boolean): number[] {
  return read((db) => {
    const group = accessUserGroupToRead(db, viewer, groupId);
    const ids = directOnly ? directMemberIds(db, group.id) : recursiveMemberIds(db, group.id);
    const active = activeUserIdsAmong(db, ids);
    return ids.filter((id) => active.has(id));
  });
}

/** GET /user_groups/{id}/members/{user_id}. */
export function isUserGroupMember(viewer: User, groupId: number, userId: number, directOnly: boolean): boolean {
  return read((db) => {
    const group = accessUserGroupToRead(db, viewer, groupId);
    const target = accessUser(db, userId);
    return directOnly ? directMemberIds(db, group.id).includes(target.id) : isUserInGroup(db, target.id, group.id);
  });
}

/** GET /user_groups/{id}/subgroups: direct ones, or those at any depth without the group itself. */
export function listUserGroupSubgroups(viewer: User, groupId: number, directOnly: boolean): number[] {
  return read((db) => {
    const group = accessUserGroupToRead(db, viewer, groupId);
    if (directOnly) return directSubgroupIds(db, group.id);
    return [...groupsWithSubgroups(db, [group.id])].filter((id) => id !== group.id).sort((a, b) => a - b);
  });
}
