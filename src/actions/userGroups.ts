import { checkGroupSettingUpdate, checkGroupSettingValue, systemGroupId } from "../access/groupSettings";
import { accessUserGroupForUpdate, holdsRealmGroupPermission, userGroupAudience } from "../access/userGroups";
import { addGroupMembers, addDirectSubgroups, groupNameTaken, insertGroup, releaseGroupSettingValue, storeGroupSettingValue, updateGroup, type UserGroup } from "../db/userGroups";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import type { UserGroupUpdateEvent } from "../events/kinds/userGroups";
import { badRequest } from "../http/errors";
import type { GroupSettingValue } from "../model/groupSetting";
import {
  MAX_USER_GROUP_DESCRIPTION_LENGTH,
  MAX_USER_GROUP_NAME_LENGTH,
  RESERVED_GROUP_NAME_PREFIXES,
  USER_GROUP_SETTINGS,
  USER_GROUP_SETTING_NAMES,
  type UserGroupSettingName,
} from "../model/userGroupSettings";
import { userGroupToApi } from "../shapes/userGroups";
import { checkActiveUserIds, checkUsableSubgroups } from "./userGroupMembers";
import { deactivate, reactivate } from "./deactivateUserGroup";
import { now } from "../model/clock";
import { groupSettingApiValue } from "../shapes/groupSettings";

export interface NewUserGroup {
  name: string;
  description: string;
  members: number[];
  subgroups: number[];
  settings: Partial<Record<UserGroupSettingName, GroupSettingValue>>;
}

/** POST /user_groups/create: needs the realm's can_create_groups; subgroups need nothing more. */
export async function createUserGroup(actor: User, input: NewUserGroup): Promise<{ group_id: number }> {
  return await write(async (tx) => {
    if (!(await holdsRealmGroupPermission(tx, actor, "can_create_groups"))) throw badRequest("Insufficient permission");
    const name = await checkName(tx, input.name, null);
    const description = checkDescription(input.description);
    const members = await checkActiveUserIds(tx, input.members);
    const subgroups = await checkUsableSubgroups(tx, input.subgroups);
    const settings: Array<readonly [UserGroupSettingName, GroupSettingValue]> = [];
    for (const setting of USER_GROUP_SETTING_NAMES) {
      const given = input.settings[setting];
      settings.push([setting, given === undefined ? await defaultValue(tx, actor, setting) : await checkGroupSettingValue(tx, setting, given, USER_GROUP_SETTINGS[setting].rules)]);
    }

    const created = now();
    const group = await insertGroup(tx, { name, description, dateCreated: created, creatorId: actor.id });
    await addGroupMembers(tx, group.id, members);
    await addDirectSubgroups(tx, group.id, subgroups);
    const columns: Record<string, number> = {};
    for (const [setting, value] of settings) columns[USER_GROUP_SETTINGS[setting].column] = await storeGroupSettingValue(tx, value, null, created);
    await updateGroup(tx, group.id, columns);
    tx.emit({ type: "user_group", op: "add", group: await userGroupToApi(tx, group.id) }, await userGroupAudience(tx));
    return { group_id: group.id };
  });
}

async function defaultValue(tx: Tx, creator: User, setting: UserGroupSettingName): Promise<GroupSettingValue> {
  const wanted = USER_GROUP_SETTINGS[setting].default;
  return wanted === "group_creator" ? { direct_members: [creator.id], direct_subgroups: [] } : await systemGroupId(tx, wanted);
}

export interface UserGroupChanges {
  name?: string;
  description?: string;
  settings: Partial<Record<UserGroupSettingName, { new: GroupSettingValue; old?: GroupSettingValue }>>;
  deactivated?: boolean;
}

/**
 * PATCH /user_groups/{id} (spec 4.7): name, description, permission settings, and
 * (de)activation, all checked before anything changes, one event per changed property.
 */
export async function updateUserGroup(actor: User, groupId: number, changes: UserGroupChanges) {
  const requested = Object.keys(changes.settings).length > 0 || changes.name !== undefined || changes.description !== undefined || changes.deactivated !== undefined;
  if (!requested) throw badRequest("No new data supplied");
  await write(async (tx) => {
    const group = await accessUserGroupForUpdate(tx, actor, groupId);
    if (changes.deactivated === false && !group.deactivated) throw badRequest("User group is not deactivated.");
    const name = changes.name === undefined || changes.name === group.name ? undefined : await checkName(tx, changes.name, group.id);
    const description = changes.description === undefined || changes.description === group.description ? undefined : checkDescription(changes.description);
    const settings: Array<readonly [UserGroupSettingName, GroupSettingValue]> = [];
    for (const setting of USER_GROUP_SETTING_NAMES) {
      const update = changes.settings[setting];
      const current = group[USER_GROUP_SETTINGS[setting].column];
      if (!update || current === null) continue;
      const value = await checkGroupSettingUpdate(tx, setting, update, current, USER_GROUP_SETTINGS[setting].rules);
      if (value !== null) settings.push([setting, value]);
    }

    // Reactivation first and deactivation last, so clients that drop deactivated groups
    // (events/filters.ts) see the other changes on a group they know.
    if (changes.deactivated === false) await reactivate(tx, group);
    const emit = async (data: UserGroupUpdateEvent["data"]) => tx.emit({ type: "user_group", op: "update", group_id: group.id, data }, await userGroupAudience(tx));
    if (name !== undefined) {
      await updateGroup(tx, group.id, { name });
      await emit({ name });
    }
    if (description !== undefined) {
      await updateGroup(tx, group.id, { description });
      await emit({ description });
    }
    for (const [setting, value] of settings) await emit({ [setting]: await changeSetting(tx, group, setting, value) });
    if (changes.deactivated === true) await deactivate(tx, group);
  });
}

async function changeSetting(tx: Tx, group: UserGroup, setting: UserGroupSettingName, value: GroupSettingValue) {
  const column = USER_GROUP_SETTINGS[setting].column;
  const oldGroupId = group[column] as number;
  const newGroupId = await storeGroupSettingValue(tx, value, oldGroupId, now());
  await updateGroup(tx, group.id, { [column]: newGroupId });
  await releaseGroupSettingValue(tx, oldGroupId, newGroupId);
  return await groupSettingApiValue(tx, newGroupId);
}

/**
 * Names are unique regardless of case, system and deactivated groups included, since a
 * mention (@*name*) finds its group that way.
 */
async function checkName(tx: Tx, raw: string, ownId: number | null): Promise<string> {
  const name = raw.trim();
  if (name === "") throw badRequest("User group name can't be empty!");
  if ([...name].length > MAX_USER_GROUP_NAME_LENGTH) throw badRequest(`User group name cannot exceed ${MAX_USER_GROUP_NAME_LENGTH} characters.`);
  const prefix = RESERVED_GROUP_NAME_PREFIXES.find((each) => name.toLowerCase().startsWith(each));
  if (prefix) throw badRequest(`User group name cannot start with '${prefix}'.`);
  if (await groupNameTaken(tx, name, ownId)) throw badRequest(`User group '${name}' already exists.`);
  return name;
}

function checkDescription(description: string): string {
  if ([...description].length > MAX_USER_GROUP_DESCRIPTION_LENGTH) throw badRequest(`User group description cannot exceed ${MAX_USER_GROUP_DESCRIPTION_LENGTH} characters.`);
  return description;
}
