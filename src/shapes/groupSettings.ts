import { and, eq, inArray, isNull } from "drizzle-orm";
import { userGroupMembers, userGroupSubgroups, userGroups } from "../db/groups";
import type { Reader } from "../db/types";
import { users } from "../db/users";
import { type AnonymousGroupSetting, isAnonymousSetting } from "../model/groupSetting";

export type ApiGroupSettingValue = number | AnonymousGroupSetting;

/**
 * Stored group IDs as the API shows them: a named group as its ID, an unnamed one as its
 * direct active members and subgroups. One pass for many IDs, so lists stay cheap.
 */
export function groupSettingApiValues(db: Reader, groupIds: Iterable<number>): Map<number, ApiGroupSettingValue> {
  const ids = [...new Set(groupIds)];
  const result = new Map<number, ApiGroupSettingValue>(ids.map((id) => [id, id]));
  if (ids.length === 0) return result;
  const unnamed = new Map<number, AnonymousGroupSetting>();
  for (const chunk of chunked(ids)) {
    const rows = db.select({ id: userGroups.id }).from(userGroups).where(and(inArray(userGroups.id, chunk), isNull(userGroups.name))).all();
    for (const row of rows) unnamed.set(row.id, { direct_members: [], direct_subgroups: [] });
  }
  const unnamedIds = [...unnamed.keys()];
  for (const chunk of chunked(unnamedIds)) {
    const members = db
      .select({ groupId: userGroupMembers.groupId, userId: userGroupMembers.userId })
      .from(userGroupMembers)
      .innerJoin(users, eq(users.id, userGroupMembers.userId))
      .where(and(inArray(userGroupMembers.groupId, chunk), eq(users.isActive, true)))
      .orderBy(userGroupMembers.userId)
      .all();
    for (const row of members) unnamed.get(row.groupId)!.direct_members.push(row.userId);
    const subgroups = db
      .select({ groupId: userGroupSubgroups.groupId, subgroupId: userGroupSubgroups.subgroupId })
      .from(userGroupSubgroups)
      .where(inArray(userGroupSubgroups.groupId, chunk))
      .orderBy(userGroupSubgroups.subgroupId)
      .all();
    for (const row of subgroups) unnamed.get(row.groupId)!.direct_subgroups.push(row.subgroupId);
  }
  for (const [id, value] of unnamed) result.set(id, value);
  return result;
}

export function groupSettingApiValue(db: Reader, groupId: number): ApiGroupSettingValue {
  return groupSettingApiValues(db, [groupId]).get(groupId)!;
}

/** Equal as sets: member and subgroup order does not matter. */
export function sameGroupSettingValue(a: ApiGroupSettingValue, b: ApiGroupSettingValue): boolean {
  if (!isAnonymousSetting(a) || !isAnonymousSetting(b)) return a === b;
  const sameSet = (x: number[], y: number[]) => new Set(x).size === new Set(y).size && x.every((id) => y.includes(id));
  return sameSet(a.direct_members, b.direct_members) && sameSet(a.direct_subgroups, b.direct_subgroups);
}

function chunked(ids: number[], size = 500): number[][] {
  const result: number[][] = [];
  for (let i = 0; i < ids.length; i += size) result.push(ids.slice(i, i + size));
  return result;
}
