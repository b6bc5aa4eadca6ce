import { type SQL, eq, getTableColumns, isNotNull, sql } from "drizzle-orm";
import { CHANNEL_GROUP_SETTING_NAMES } from "../model/channelSettings";
import { USER_GROUP_SETTINGS, USER_GROUP_SETTING_NAMES } from "../model/userGroupSettings";
import { isFalse } from "./dialectSql";
import { sqlRows } from "./rawSql";
import type { Reader } from "./types";
import { channels, userGroupSubgroups, userGroups } from "./tables";

/**
 * Where a user group is used, asked before it is deactivated: as a subgroup of another group,
 * and as the value of a permission setting of a channel or of another group (directly, or
 * through the unnamed group of an anonymous value).
 */

export interface Supergroup {
  id: number;
  /** False for the unnamed group behind an anonymous setting value. */
  named: boolean;
  deactivated: boolean;
}

/** The groups that have this one as a direct subgroup. */
export async function supergroupsOf(db: Reader, groupId: number): Promise<Supergroup[]> {
  return (await db
    .select({ id: userGroupSubgroups.groupId, named: isNotNull(userGroups.name), deactivated: userGroups.deactivated })
    .from(userGroupSubgroups)
    .innerJoin(userGroups, eq(userGroups.id, userGroupSubgroups.groupId))
    .where(eq(userGroupSubgroups.subgroupId, groupId)))
    .map((row) => ({ ...row, named: Boolean(row.named) }));
}

/** [setting, database column] pairs of the tables whose permissions may name a group. */
const channelColumns = Object.values(getTableColumns(channels));
const CHANNEL_SETTING_COLUMNS = CHANNEL_GROUP_SETTING_NAMES.map((setting) => [setting, channelColumns.find((column) => column.name === setting)!.name] as [string, string]);
const GROUP_SETTING_COLUMNS = USER_GROUP_SETTING_NAMES.map((setting) => [setting, userGroups[USER_GROUP_SETTINGS[setting].column].name] as [string, string]);

/** [row ID, the settings that hold one of `holders`] for the rows `activeCondition` keeps, in ID order. */
async function settingsHolding(db: Reader, table: "channels" | "user_groups", settings: Array<[string, string]>, activeCondition: SQL, holders: number[]): Promise<Array<[number, string[]]>> {
  const byObject = new Map<number, string[]>();
  for (const [setting, column] of settings) {
    const rows = await sqlRows<{ id: number }>(db, sql`SELECT id FROM ${sql.identifier(table)} WHERE ${activeCondition} AND ${sql.identifier(column)} IN ${holders}`);
    for (const { id } of rows) byObject.set(id, [...(byObject.get(id) ?? []), setting]);
  }
  return [...byObject].sort(([a], [b]) => a - b);
}

/** Channels not archived whose group settings hold one of these groups: [channel ID, the settings], in ID order. */
export async function activeChannelSettingsHolding(db: Reader, holders: number[]): Promise<Array<[number, string[]]>> {
  return settingsHolding(db, "channels", CHANNEL_SETTING_COLUMNS, isFalse("is_archived"), holders);
}

/** Active named groups other than `groupId` whose settings hold one of these groups: [group ID, the settings], in ID order. */
export async function otherActiveGroupSettingsHolding(db: Reader, groupId: number, holders: number[]): Promise<Array<[number, string[]]>> {
  return settingsHolding(db, "user_groups", GROUP_SETTING_COLUMNS, sql`name IS NOT NULL AND ${isFalse("deactivated")} AND id != ${groupId}`, holders);
}
