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
export function createUserGroup(actor: User, input: NewUserGroup): { group_id: number } {
  return write((tx) => {
    if (!holdsRealmGroupPermission(tx, actor, "can_create_groups")) throw badRequest("Insufficient permission");
    const name = checkName(tx, input.name, null);
    const description = checkDescription(input.description);
    const members = checkActiveUserIds(tx, input.members);
    const subgroups = checkUsableSubgroups(tx, input.subgroups);
    const settings = USER_GROUP_SETTING_NAMES.map((setting) => {
      const given = input.settings[setting];
      return [setting, given === undefined ? defaultValue(tx, actor, setting) : checkGroupSettingValue(tx, setting, given, USER_GROUP_SETTINGS[setting].rules)] as const;
    });

    const created = now();
    const group = insertGroup(tx, { name, description, dateCreated: created, creatorId: actor.id });
    addGroupMembers(tx, group.id, members);
    addDirectSubgroups(tx, group.id, subgroups);
    const columns = Object.fromEntries(settings.map(([setting, value]) => [USER_GROUP_SETTINGS[setting].column, storeGroupSettingValue(tx, value, null, created)]));
    updateGroup(tx, group.id, columns);
    tx.emit({ type: "user_group", op: "add", group: userGroupToApi(tx, group.id) }, userGroupAudience(tx));
    return { group_id: group.id };
  });
}

function defaultValue(tx: Tx, creator: User, setting: UserGroupSettingName): GroupSettingValue {
  const wanted = USER_GROUP_SETTINGS[setting].default;
  return wanted === "group_creator" ? { direct_members: [creator.id], direct_subgroups: [] } : systemGroupId(tx, wanted);
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
export function updateUserGroup(actor: User, groupId: number, changes: UserGroupChanges) {
  const requested = Object.keys(changes.settings).length > 0 || changes.name !== undefined || changes.description !== undefined || changes.deactivated !== undefined;
  if (!requested) throw badRequest("No new data supplied");
  write((tx) => {
    const group = accessUserGroupForUpdate(tx, actor, groupId);
    if (changes.deactivated === false && !group.deactivated) throw badRequest("User group is not deactivated.");
    const name = changes.name === undefined || changes.name === group.name ? undefined : checkName(tx, changes.name, group.id);
    const description = changes.description === undefined || changes.description === group.description ? undefined : checkDescription(changes.description);
    const settings = USER_GROUP_SETTING_NAMES.flatMap((setting) => {
      const update = changes.settings[setting];
      const current = group[USER_GROUP_SETTINGS[setting].column];
      if (!update || current === null) return [];
      const value = checkGroupSettingUpdate(tx, setting, update, current, USER_GROUP_SETTINGS[setting].rules);
      return value === null ? [] : [[setting, value] as const];
    });

    // Reactivation first and deactivation last, so clients that drop deactivated groups
    // (events/filters.ts) see the other changes on a group they know.
    if (changes.deactivated === false) reactivate(tx, group);
    const emit = (data: UserGroupUpdateEvent["data"]) => tx.emit({ type: "user_group", op: "update", group_id: group.id, data }, userGroupAudience(tx));
    if (name !== undefined) {
      updateGroup(tx, group.id, { name });
      emit({ name });
    }
    if (description !== undefined) {
      updateGroup(tx, group.id, { description });
      emit({ description });
    }
    for (const [setting, value] of settings) emit({ [setting]: changeSetting(tx, group, setting, value) });
    if (changes.deactivated === true) deactivate(tx, group);
  });
}

function changeSetting(tx: Tx, group: UserGroup, setting: UserGroupSettingName, value: GroupSettingValue) {
  const column = USER_GROUP_SETTINGS[setting].column;
  const oldGroupId = group[column] as number;
  const newGroupId = storeGroupSettingValue(tx, value, oldGroupId, now());
  updateGroup(tx, group.id, { [column]: newGroupId });
  releaseGroupSettingValue(tx, oldGroupId, newGroupId);
  return groupSettingApiValue(tx, newGroupId);
}

/**
 * Names are unique regardless of case, system and deactivated groups included, since a
 * mention (@*name*) finds its group that way.
 */
function checkName(tx: Tx, raw: string, ownId: number | null): string {
  const name = raw.trim();
  if (name === "") throw badRequest("User group name can't be empty!");
  if ([...name].length > MAX_USER_GROUP_NAME_LENGTH) throw badRequest(`User group name cannot exceed ${MAX_USER_GROUP_NAME_LENGTH} characters.`);
  const prefix = RESERVED_GROUP_NAME_PREFIXES.find((each) => name.toLowerCase().startsWith(each));
  if (prefix) throw badRequest(`User group name cannot start with '${prefix}'.`);
  if (groupNameTaken(tx, name, ownId)) throw badRequest(`User group '${name}' already exists.`);
  return name;
}

function checkDescription(description: string): string {
  if ([...description].length > MAX_USER_GROUP_DESCRIPTION_LENGTH) throw badRequest(`User group description cannot exceed ${MAX_USER_GROUP_DESCRIPTION_LENGTH} characters.`);
  return description;
}
