import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { userGroupMembers, userGroupSubgroups, userGroups } from "./userGroups";
import type { Reader } from "./types";
import { users } from "./users";

/**
 * Who is in which user group, read for many groups at once: what permission checks and the
 * API shapes of groups and group-setting values need. Lists are read 500 IDs at a time.
 */

const CHUNK = 500;

function chunked(ids: number[]): number[][] {
  const result: number[][] = [];
  for (let i = 0; i < ids.length; i += CHUNK) result.push(ids.slice(i, i + CHUNK));
  return result;
}

/** The groups a user is in, directly or through subgroups, named and unnamed. */
export async function groupsContainingUser(db: Reader, userId: number): Promise<Set<number>> {
  const rows = db.all<{ id: number }>(sql`
    WITH RECURSIVE containing(id) AS (
      SELECT group_id FROM user_group_members WHERE user_id = ${userId}
      UNION
      SELECT s.group_id FROM user_group_subgroups s JOIN containing c ON s.subgroup_id = c.id
    )
    SELECT id FROM containing`);
  return new Set(rows.map((row) => row.id));
}

/** Of these group IDs, the unnamed groups (values of settings). */
export async function unnamedGroupIdsAmong(db: Reader, groupIds: number[]): Promise<number[]> {
  const ids: number[] = [];
  for (const chunk of chunked(groupIds)) {
    for (const row of db.select({ id: userGroups.id }).from(userGroups).where(and(inArray(userGroups.id, chunk), isNull(userGroups.name))).all()) ids.push(row.id);
  }
  return ids;
}

/** The direct members of these groups who are active users, each group's in user ID order. */
export async function activeDirectMembers(db: Reader, groupIds: number[]): Promise<Array<{ groupId: number; userId: number }>> {
  const members: Array<{ groupId: number; userId: number }> = [];
  for (const chunk of chunked(groupIds)) {
    const rows = db
      .select({ groupId: userGroupMembers.groupId, userId: userGroupMembers.userId })
      .from(userGroupMembers)
      .innerJoin(users, eq(users.id, userGroupMembers.userId))
      .where(and(inArray(userGroupMembers.groupId, chunk), eq(users.isActive, true)))
      .orderBy(userGroupMembers.userId)
      .all();
    for (const row of rows) members.push(row);
  }
  return members;
}

/** The direct subgroups of these groups, each group's in ID order. */
export async function directSubgroups(db: Reader, groupIds: number[]): Promise<Array<{ groupId: number; subgroupId: number }>> {
  const subgroups: Array<{ groupId: number; subgroupId: number }> = [];
  for (const chunk of chunked(groupIds)) {
    const rows = db
      .select({ groupId: userGroupSubgroups.groupId, subgroupId: userGroupSubgroups.subgroupId })
      .from(userGroupSubgroups)
      .where(inArray(userGroupSubgroups.groupId, chunk))
      .orderBy(userGroupSubgroups.subgroupId)
      .all();
    for (const row of rows) subgroups.push(row);
  }
  return subgroups;
}
