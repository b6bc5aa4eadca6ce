import { accessUserGroupForUpdate, userGroupAudience } from "../access/userGroups";
import { setUserGroupDeactivated, type UserGroup } from "../db/userGroups";
import { activeChannelSettingsHolding, otherActiveGroupSettingsHolding, supergroupsOf } from "../db/userGroupUses";
import { getRealm } from "../db/realm";
import { write } from "../db/transaction";
import type { Reader, Tx } from "../db/types";
import type { User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { REALM_GROUP_SETTING_DEFAULTS, type RealmGroupSettingName } from "../model/realmSettings";

/**
 * Deactivating and reactivating a user group. A deactivated group keeps its members and
 * settings, but may not be mentioned or used in any permission, so a group still in use
 * cannot be deactivated (the reference's CANNOT_DEACTIVATE_GROUP_IN_USE, with objections).
 */

/** POST /user_groups/{id}/deactivate. */
export async function deactivateUserGroup(actor: User, groupId: number) {
  await write(async (tx) => deactivate(tx, await accessUserGroupForUpdate(tx, actor, groupId)));
}

export async function deactivate(tx: Tx, group: UserGroup) {
  if (group.deactivated) throw badRequest("User group is already deactivated.");
  const objections = await usesOf(tx, group.id);
  if (objections.length > 0) throw new ApiError("CANNOT_DEACTIVATE_GROUP_IN_USE", "Cannot deactivate user group in use.", { objections });
  await setDeactivated(tx, group, true);
}

export async function reactivate(tx: Tx, group: UserGroup) {
  await setDeactivated(tx, group, false);
}

async function setDeactivated(tx: Tx, group: UserGroup, deactivated: boolean) {
  await setUserGroupDeactivated(tx, group.id, deactivated);
  tx.emit({ type: "user_group", op: "update", group_id: group.id, data: { deactivated } }, await userGroupAudience(tx));
}

type Objection =
  | { type: "subgroup"; supergroup_ids: number[] }
  | { type: "realm"; settings: RealmGroupSettingName[] }
  | { type: "channel"; channel_id: number; settings: string[] }
  | { type: "user_group"; group_id: number; settings: string[] };

/**
 * Where an active thing depends on the group: as a subgroup of an active group, or in a
 * permission of the realm, of a channel not archived, or of another active group, directly
 * or inside an anonymous value.
 */
async function usesOf(db: Reader, groupId: number): Promise<Objection[]> {
  const objections: Objection[] = [];
  const supergroups = await supergroupsOf(db, groupId);
  const activeSupergroupIds = supergroups.filter((row) => row.named && !row.deactivated).map((row) => row.id);
  if (activeSupergroupIds.length > 0) objections.push({ type: "subgroup", supergroup_ids: activeSupergroupIds.sort((a, b) => a - b) });
  // The setting values that hold the group: the group itself, or an anonymous value naming it.
  const holders = [groupId, ...supergroups.filter((row) => !row.named).map((row) => row.id)];

  const realmSettings = (await getRealm(db)).settings;
  const realmUses = (Object.keys(REALM_GROUP_SETTING_DEFAULTS) as RealmGroupSettingName[]).filter((setting) => holders.includes(realmSettings[setting]));
  if (realmUses.length > 0) objections.push({ type: "realm", settings: realmUses.sort() });

  for (const [channelId, settings] of await activeChannelSettingsHolding(db, holders)) {
    objections.push({ type: "channel", channel_id: channelId, settings });
  }
  for (const [otherId, settings] of await otherActiveGroupSettingsHolding(db, groupId, holders)) {
    objections.push({ type: "user_group", group_id: otherId, settings });
  }
  return objections;
}
