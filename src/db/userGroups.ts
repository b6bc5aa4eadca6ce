import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { type GroupSettingValue, isAnonymousSetting } from "../model/groupSetting";
import { Role, SYSTEM_GROUP_CHAIN, SystemGroup, directGroupOfRole, systemGroupDescription } from "../model/roles";
import { dialect } from "./dialect";
import { sqlRows } from "./rawSql";
import type { Reader, Tx } from "./types";
import { userGroupMembers, userGroupSubgroups, userGroups } from "./tables";

export type UserGroup = typeof userGroups.$inferSelect;

export async function findGroupById(db: Reader, id: number): Promise<UserGroup | undefined> {
  return (await db.select().from(userGroups).where(eq(userGroups.id, id)))[0];
}

/** System groups by name, e.g. "role:members" → its row. */
export async function systemGroupsByName(db: Reader): Promise<Map<string, UserGroup>> {
  const rows = await db
    .select()
    .from(userGroups)
    .where(and(eq(userGroups.isSystemGroup, true), isNotNull(userGroups.name)));
  return new Map(rows.map((row) => [row.name as string, row]));
}

export async function directMemberIds(db: Reader, groupId: number): Promise<number[]> {
  return (await db
    .select({ id: userGroupMembers.userId })
    .from(userGroupMembers)
    .where(eq(userGroupMembers.groupId, groupId))
    .orderBy(userGroupMembers.userId))
    .map((row) => row.id);
}

export async function directSubgroupIds(db: Reader, groupId: number): Promise<number[]> {
  return (await db
    .select({ id: userGroupSubgroups.subgroupId })
    .from(userGroupSubgroups)
    .where(eq(userGroupSubgroups.groupId, groupId))
    .orderBy(userGroupSubgroups.subgroupId))
    .map((row) => row.id);
}

// Membership is recursive through subgroups. The recursive CTE uses UNION (not UNION ALL),
// so a cycle that slipped in could not loop forever.
// PostgreSQL takes the column's type from the first SELECT: the ID is cast to the type of the
// subgroup IDs that follow (an untyped parameter would be text).
const reachableGroups = (groupId: number) => sql`
  WITH RECURSIVE reachable(id) AS (
    SELECT ${dialect() === "postgres" ? sql`${groupId}::bigint` : groupId}
    UNION
    SELECT s.subgroup_id FROM user_group_subgroups s JOIN reachable r ON s.group_id = r.id
  )`;

/** Whether a user is in a group, directly or through any depth of subgroups. */
export async function isUserInGroup(db: Reader, userId: number, groupId: number): Promise<boolean> {
  const rows = await sqlRows<{ found: number }>(db, sql`${reachableGroups(groupId)}
    SELECT 1 AS found FROM user_group_members m
    WHERE m.user_id = ${userId} AND m.group_id IN (SELECT id FROM reachable) LIMIT 1`);
  return rows.length > 0;
}

/** Every user in a group, recursively. */
export async function recursiveMemberIds(db: Reader, groupId: number): Promise<number[]> {
  return (
    await sqlRows<{ user_id: number }>(db, sql`${reachableGroups(groupId)}
      SELECT DISTINCT m.user_id FROM user_group_members m
      WHERE m.group_id IN (SELECT id FROM reachable) ORDER BY m.user_id`)
  ).map((row) => row.user_id);
}

export async function removeDirectMemberships(tx: Tx, userId: number, groupIds: number[]) {
  if (groupIds.length === 0) return;
  await tx.delete(userGroupMembers)
    .where(and(eq(userGroupMembers.userId, userId), inArray(userGroupMembers.groupId, groupIds)));
}

/**
 * Keeps a user's direct membership in the role:* groups equal to their role. Members also
 * join role:fullmembers when the waiting period is zero (see the realm's
 * waiting_period_threshold; a timed job promotes later joiners once that setting matters).
 * Returns the groups the user joined and left, for the action to announce.
 */
export async function syncRoleGroups(tx: Tx, userId: number, role: Role, isFullMember: boolean): Promise<{ joined: number[]; left: number[] }> {
  const groups = await systemGroupsByName(tx);
  const roleGroupIds = SYSTEM_GROUP_CHAIN.map((name) => groups.get(name)?.id).filter((id): id is number => id !== undefined);
  const wanted = [directGroupOfRole[role]];
  if (role === Role.MEMBER && isFullMember) wanted.push(SystemGroup.FULL_MEMBERS);
  const wantedIds = wanted.map((name) => {
    const group = groups.get(name);
    if (!group) throw new Error(`System group ${name} is missing`);
    return group.id;
  });
  const current = roleGroupIds.length === 0 ? [] : (await tx
    .select({ groupId: userGroupMembers.groupId })
    .from(userGroupMembers)
    .where(and(eq(userGroupMembers.userId, userId), inArray(userGroupMembers.groupId, roleGroupIds))))
    .map((row) => row.groupId);
  const left = current.filter((id) => !wantedIds.includes(id));
  const joined = wantedIds.filter((id) => !current.includes(id));
  await removeDirectMemberships(tx, userId, left);
  if (joined.length > 0) await tx.insert(userGroupMembers).values(joined.map((groupId) => ({ groupId, userId })));
  return { joined, left };
}

/** Creates the role:* groups, each containing the next narrower one. Returns them by name. */
export async function createSystemGroups(tx: Tx, now: number): Promise<Map<string, UserGroup>> {
  const created = new Map<string, UserGroup>();
  for (const name of [...SYSTEM_GROUP_CHAIN, SystemGroup.NOBODY]) {
    const row = (await tx
      .insert(userGroups)
      .values({ name, description: systemGroupDescription[name], isSystemGroup: true, dateCreated: now })
      .returning())[0];
    created.set(name, row);
  }
  for (let i = 0; i + 1 < SYSTEM_GROUP_CHAIN.length; i++) {
    const parent = created.get(SYSTEM_GROUP_CHAIN[i])!;
    const child = created.get(SYSTEM_GROUP_CHAIN[i + 1])!;
    await tx.insert(userGroupSubgroups).values({ groupId: parent.id, subgroupId: child.id });
  }
  // System groups are managed by the server; nobody edits them by hand.
  const nobody = created.get(SystemGroup.NOBODY)!.id;
  await tx.update(userGroups)
    .set({
      canAddMembersGroup: nobody,
      canJoinGroup: nobody,
      canLeaveGroup: nobody,
      canManageGroup: nobody,
      canMentionGroup: created.get(SystemGroup.EVERYONE)!.id,
      canRemoveMembersGroup: nobody,
    })
    .where(eq(userGroups.isSystemGroup, true));
  return created;
}

/** The given groups and every group below them through subgroups, at any depth. */
export async function groupsWithSubgroups(db: Reader, groupIds: number[]): Promise<Set<number>> {
  if (groupIds.length === 0) return new Set();
  const json = JSON.stringify(groupIds);
  const rows = await sqlRows<{ id: number }>(db, sql`
    WITH RECURSIVE reachable(id) AS (
      ${dialect() === "postgres" ? sql`SELECT jsonb_array_elements_text(${json}::text::jsonb)::bigint` : sql`SELECT value FROM json_each(${json})`}
      UNION
      SELECT s.subgroup_id FROM user_group_subgroups s JOIN reachable r ON s.group_id = r.id
    )
    SELECT id FROM reachable`);
  return new Set(rows.map((row) => row.id));
}

/**
 * Stores a checked value and returns the group ID to keep in the setting's column. An
 * anonymous value reuses the setting's current unnamed group when it has one.
 */
export async function storeGroupSettingValue(tx: Tx, value: GroupSettingValue, currentGroupId: number | null, now: number): Promise<number> {
  if (!isAnonymousSetting(value)) return value;
  let groupId = currentGroupId !== null && (await isUnnamedGroup(tx, currentGroupId)) ? currentGroupId : null;
  if (groupId === null) {
    groupId = (await tx.insert(userGroups).values({ name: null, dateCreated: now }).returning({ id: userGroups.id }))[0].id;
  } else {
    await tx.delete(userGroupMembers).where(eq(userGroupMembers.groupId, groupId));
    await tx.delete(userGroupSubgroups).where(eq(userGroupSubgroups.groupId, groupId));
  }
  if (value.direct_members.length > 0) await tx.insert(userGroupMembers).values(value.direct_members.map((userId) => ({ groupId: groupId!, userId })));
  if (value.direct_subgroups.length > 0) await tx.insert(userGroupSubgroups).values(value.direct_subgroups.map((subgroupId) => ({ groupId: groupId!, subgroupId })));
  return groupId;
}

/** Drops the unnamed group a setting used to hold once the setting points elsewhere. */
export async function releaseGroupSettingValue(tx: Tx, oldGroupId: number, newGroupId: number) {
  if (oldGroupId !== newGroupId && (await isUnnamedGroup(tx, oldGroupId))) await tx.delete(userGroups).where(eq(userGroups.id, oldGroupId));
}

async function isUnnamedGroup(db: Reader, groupId: number): Promise<boolean> {
  return (await db.select({ id: userGroups.id }).from(userGroups).where(and(eq(userGroups.id, groupId), isNull(userGroups.name))))[0] !== undefined;
}

/** The named groups (deactivated ones included) a user is a direct member of. */
export async function namedGroupIdsOfMember(db: Reader, userId: number): Promise<number[]> {
  return (await db
    .select({ id: userGroups.id })
    .from(userGroupMembers)
    .innerJoin(userGroups, eq(userGroups.id, userGroupMembers.groupId))
    .where(and(eq(userGroupMembers.userId, userId), isNotNull(userGroups.name))))
    .map((row) => row.id);
}

export type NewGroup = typeof userGroups.$inferInsert;

export async function insertGroup(tx: Tx, values: NewGroup): Promise<UserGroup> {
  return (await tx.insert(userGroups).values(values).returning())[0];
}

export async function updateGroup(tx: Tx, groupId: number, changes: Partial<Omit<NewGroup, "id">>) {
  await tx.update(userGroups).set(changes).where(eq(userGroups.id, groupId));
}

/** Makes these users direct members of a group; none may be one already. */
export async function addGroupMembers(tx: Tx, groupId: number, userIds: number[]) {
  if (userIds.length === 0) return;
  await tx.insert(userGroupMembers).values(userIds.map((userId) => ({ groupId, userId })));
}

/** Ends these users' direct membership of a group. */
export async function removeGroupMembers(tx: Tx, groupId: number, userIds: number[]) {
  if (userIds.length === 0) return;
  await tx.delete(userGroupMembers).where(and(eq(userGroupMembers.groupId, groupId), inArray(userGroupMembers.userId, userIds)));
}

export async function setUserGroupDeactivated(tx: Tx, groupId: number, deactivated: boolean) {
  await tx.update(userGroups).set({ deactivated }).where(eq(userGroups.id, groupId));
}

export async function addDirectSubgroups(tx: Tx, groupId: number, subgroupIds: number[]) {
  if (subgroupIds.length === 0) return;
  await tx.insert(userGroupSubgroups).values(subgroupIds.map((subgroupId) => ({ groupId, subgroupId })));
}

export async function removeDirectSubgroups(tx: Tx, groupId: number, subgroupIds: number[]) {
  if (subgroupIds.length === 0) return;
  await tx.delete(userGroupSubgroups).where(and(eq(userGroupSubgroups.groupId, groupId), inArray(userGroupSubgroups.subgroupId, subgroupIds)));
}

/** Whether a named group other than `exceptGroupId` (system and deactivated ones included) has this name, compared case-insensitively. */
export async function groupNameTaken(db: Reader, name: string, exceptGroupId: number | null): Promise<boolean> {
  const others = [isNotNull(userGroups.name), sql`lower(${userGroups.name}) = ${name.toLowerCase()}`];
  if (exceptGroupId !== null) others.push(ne(userGroups.id, exceptGroupId));
  return (await db.select({ id: userGroups.id }).from(userGroups).where(and(...others)))[0] !== undefined;
}

/** Named groups (system and user-made), in ID order; unnamed groups are values of settings, never listed. */
export async function listNamedGroups(db: Reader, options: { includeDeactivated: boolean; ids?: number[] }): Promise<UserGroup[]> {
  const conditions = [isNotNull(userGroups.name)];
  if (!options.includeDeactivated) conditions.push(eq(userGroups.deactivated, false));
  if (options.ids) conditions.push(inArray(userGroups.id, options.ids));
  return await db.select().from(userGroups).where(and(...conditions)).orderBy(asc(userGroups.id));
}
