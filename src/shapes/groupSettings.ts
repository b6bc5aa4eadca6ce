import { activeDirectMembers, directSubgroups, unnamedGroupIdsAmong } from "../db/userGroupMembership";
import type { Reader } from "../db/types";
import { type AnonymousGroupSetting, isAnonymousSetting } from "../model/groupSetting";

export type ApiGroupSettingValue = number | AnonymousGroupSetting;

/**
 * Stored group IDs as the API shows them: a named group as its ID, an unnamed one as its
 * direct active members and subgroups. One pass for many IDs, so lists stay cheap.
 */
export async function groupSettingApiValues(db: Reader, groupIds: Iterable<number>): Promise<Map<number, ApiGroupSettingValue>> {
  const ids = [...new Set(groupIds)];
  const result = new Map<number, ApiGroupSettingValue>(ids.map((id) => [id, id]));
  if (ids.length === 0) return result;
  const unnamed = new Map<number, AnonymousGroupSetting>();
  for (const id of await unnamedGroupIdsAmong(db, ids)) unnamed.set(id, { direct_members: [], direct_subgroups: [] });
  const unnamedIds = [...unnamed.keys()];
  for (const row of await activeDirectMembers(db, unnamedIds)) unnamed.get(row.groupId)!.direct_members.push(row.userId);
  for (const row of await directSubgroups(db, unnamedIds)) unnamed.get(row.groupId)!.direct_subgroups.push(row.subgroupId);
  for (const [id, value] of unnamed) result.set(id, value);
  return result;
}

export async function groupSettingApiValue(db: Reader, groupId: number): Promise<ApiGroupSettingValue> {
  return (await groupSettingApiValues(db, [groupId])).get(groupId)!;
}

/** Equal as sets: member and subgroup order does not matter. */
export function sameGroupSettingValue(a: ApiGroupSettingValue, b: ApiGroupSettingValue): boolean {
  if (!isAnonymousSetting(a) || !isAnonymousSetting(b)) return a === b;
  const sameSet = (x: number[], y: number[]) => new Set(x).size === new Set(y).size && x.every((id) => y.includes(id));
  return sameSet(a.direct_members, b.direct_members) && sameSet(a.direct_subgroups, b.direct_subgroups);
}
