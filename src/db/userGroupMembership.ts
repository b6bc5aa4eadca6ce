import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { sqlRows } from "./rawSql";
import { rowsForParts } from "./sqlLists";
import type { Reader } from "./types";
import { userGroupMembers, userGroupSubgroups, userGroups, users } from "./tables";

/**
 * Who is in which user group, read for many groups at once: what permission checks and the
 * API shapes of groups and group-setting values need. Long lists are read in parts (sqlLists.ts).
 */


/** The groups a user is in, directly or through subgroups, named and unnamed. */
export async function groupsContainingUser(db: Reader, userId: number): Promise<Set<number>> {
  const rows = await sqlRows<{ id: number }>(db, sql`
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
  return (await rowsForParts(groupIds, (part) => db.select({ id: userGroups.id }).from(userGroups).where(and(inArray(userGroups.id, part), isNull(userGroups.name))))).map((row) => row.id);
}

/** The direct members of these groups who are active users, each group's in user ID order. */
export async function activeDirectMembers(db: Reader, groupIds: number[]): Promise<Array<{ groupId: number; userId: number }>> {
  return rowsForParts(groupIds, (part) =>
    db
      .select({ groupId: userGroupMembers.groupId, userId: userGroupMembers.userId })
      .from(userGroupMembers)
      .innerJoin(users, eq(users.id, userGroupMembers.userId))
      .where(and(inArray(userGroupMembers.groupId, part), eq(users.isActive, true)))
      .orderBy(userGroupMembers.userId),
  );
}

/** The direct subgroups of these groups, each group's in ID order. */
export async function directSubgroups(db: Reader, groupIds: number[]): Promise<Array<{ groupId: number; subgroupId: number }>> {
  return rowsForParts(groupIds, (part) =>
    db
      .select({ groupId: userGroupSubgroups.groupId, subgroupId: userGroupSubgroups.subgroupId })
      .from(userGroupSubgroups)
      .where(inArray(userGroupSubgroups.groupId, part))
      .orderBy(userGroupSubgroups.subgroupId),
  );
}
