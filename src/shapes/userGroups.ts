import { activeDirectMembers, directSubgroups } from "../db/userGroupMembership";
import { listNamedGroups } from "../db/userGroups";
import type { Reader } from "../db/types";
import { USER_GROUP_SETTINGS, USER_GROUP_SETTING_NAMES, type UserGroupSettingName } from "../model/userGroupSettings";
import { groupSettingApiValues, type ApiGroupSettingValue } from "./groupSettings";

/** A user group as the API shows it (reference: components/schemas/UserGroup). */
export interface ApiUserGroup {
  id: number;
  name: string;
  description: string;
  date_created: number | null;
  creator_id: number | null;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  deactivated: boolean;
  can_add_members_group: ApiGroupSettingValue;
  can_join_group: ApiGroupSettingValue;
  can_leave_group: ApiGroupSettingValue;
  can_manage_group: ApiGroupSettingValue;
  can_mention_group: ApiGroupSettingValue;
  can_remove_members_group: ApiGroupSettingValue;
}

function groupBy<T>(rows: T[], key: (row: T) => number, value: (row: T) => number): Map<number, number[]> {
  const grouped = new Map<number, number[]>();
  for (const row of rows) grouped.set(key(row), [...(grouped.get(key(row)) ?? []), value(row)]);
  return grouped;
}

/**
 * Named groups (system and user-made) in the API shape, in ID order; members are the direct,
 * active members. Unnamed groups are values of settings, never listed.
 */
export async function listUserGroupsForApi(db: Reader, options: { includeDeactivated: boolean; ids?: number[] }): Promise<ApiUserGroup[]> {
  const groups = await listNamedGroups(db, options);
  if (groups.length === 0) return [];
  const groupIds = groups.map((group) => group.id);
  const members = groupBy(await activeDirectMembers(db, groupIds), (row) => row.groupId, (row) => row.userId);
  const subgroups = groupBy(await directSubgroups(db, groupIds), (row) => row.groupId, (row) => row.subgroupId);
  const columnOf = (setting: UserGroupSettingName) => USER_GROUP_SETTINGS[setting].column;
  const settingIds = groups.flatMap((group) => USER_GROUP_SETTING_NAMES.map((setting) => group[columnOf(setting)])).filter((id): id is number => id !== null);
  const values = await groupSettingApiValues(db, settingIds);
  return groups.map((group) => ({
    id: group.id,
    name: group.name as string,
    description: group.description,
    date_created: group.dateCreated,
    creator_id: group.creatorId,
    members: members.get(group.id) ?? [],
    direct_subgroup_ids: subgroups.get(group.id) ?? [],
    is_system_group: group.isSystemGroup,
    deactivated: group.deactivated,
    ...(Object.fromEntries(
      USER_GROUP_SETTING_NAMES.map((setting) => {
        const groupId = group[columnOf(setting)];
        return [setting, groupId === null ? null : values.get(groupId)];
      }),
    ) as Pick<ApiUserGroup, UserGroupSettingName>),
  }));
}

/** One named group in the API shape, deactivated or not. */
export async function userGroupToApi(db: Reader, groupId: number): Promise<ApiUserGroup> {
  return (await listUserGroupsForApi(db, { includeDeactivated: true, ids: [groupId] }))[0];
}
