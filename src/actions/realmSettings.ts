import { checkGroupSettingUpdate } from "../access/groupSettings";
import { requireAdministrator } from "../access/users";
import { findChannelById } from "../db/channels";
import { findGroupById, releaseGroupSettingValue, storeGroupSettingValue } from "../db/userGroups";
import { getRealm, updateRealm } from "../db/realm";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import { activeUserIds, type User } from "../db/users";
import type { RealmUpdateDictEvent } from "../events/kinds/realm";
import { badRequest, ownerRequired } from "../http/errors";
import { now } from "../model/clock";
import type { GroupSettingValue } from "../model/groupSetting";
import { REALM_GROUP_SETTING_RULES_BY_NAME } from "../model/realmPermissionRules";
import type { RealmGroupSettingName, RealmScalarSettings, RealmSettings } from "../model/realmSettings";
import { isOwner } from "../model/roles";
import { MAX_FILE_UPLOAD_SIZE_MIB, uploadLimitMib } from "../model/uploads";
import { groupSettingApiValue } from "../shapes/groupSettings";
import { syncFullMembers } from "./fullMembers";

/**
 * PATCH /realm: the organization's name, description and the settings Parley enforces, as
 * the reference's update_realm takes them. Everything is checked before anything changes;
 * each changed setting is announced to everyone in the reference's own event form.
 */

export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/** Scalar settings PATCH /realm takes (the rest of REALM_SETTING_DEFAULTS is fixed or server-managed). */
export const EDITABLE_SCALAR_SETTINGS = [
  "mandatory_topics",
  "waiting_period_threshold",
  "enable_spectator_access",
  "new_stream_announcements_stream_id",
  "allow_message_editing",
  "message_content_edit_limit_seconds",
  "message_content_delete_limit_seconds",
  "move_messages_within_stream_limit_seconds",
  "move_messages_between_streams_limit_seconds",
  "message_edit_history_visibility_policy",
  "max_file_upload_size_mib",
  "upload_quota_mib",
  "upload_quota_per_user_mib",
  "message_content_allowed_in_email_notifications",
] as const satisfies ReadonlyArray<keyof RealmScalarSettings>;
export type EditableScalarSetting = (typeof EDITABLE_SCALAR_SETTINGS)[number];

/**
 * Group settings PATCH /realm takes. Left out: can_access_all_users_group (changing it would
 * change which people guests' clients hold, which no event tells), and the billing and topic
 * summary settings, which Parley has no feature for.
 */
export const EDITABLE_GROUP_SETTINGS = [
  "can_create_public_channel_group",
  "can_create_private_channel_group",
  "can_create_web_public_channel_group",
  "can_add_subscribers_group",
  "can_invite_users_group",
  "create_multiuse_invite_group",
  "can_create_groups",
  "can_manage_all_groups",
  "can_mention_many_users_group",
  "can_create_bots_group",
  "can_create_write_only_bots_group",
  "can_delete_any_message_group",
  "can_delete_own_message_group",
  "can_move_messages_between_channels_group",
  "can_move_messages_between_topics_group",
  "can_resolve_topics_group",
  "can_add_custom_emoji_group",
  "direct_message_permission_group",
  "direct_message_initiator_group",
] as const satisfies readonly RealmGroupSettingName[];
export type EditableGroupSetting = (typeof EDITABLE_GROUP_SETTINGS)[number];

/** Settings only owners change: the reference's owner-only ones, and the upload limits (the server's disk). */
const OWNER_ONLY = new Set<string>([
  "waiting_period_threshold",
  "create_multiuse_invite_group",
  "can_create_groups",
  "can_invite_users_group",
  "can_manage_all_groups",
  "max_file_upload_size_mib",
  "upload_quota_mib",
  "upload_quota_per_user_mib",
]);

/** Sent as `update_dict`, as the reference sends them; the other scalars as `update`. */
const DICT_SCALARS = new Set<string>(["allow_message_editing", "message_content_edit_limit_seconds", "max_file_upload_size_mib", "upload_quota_mib", "upload_quota_per_user_mib"]);

/** Settings the API shows as -1 when stored as null (events/state/realm.ts). */
const NULL_AS_MINUS_ONE = new Set<string>(["new_stream_announcements_stream_id"]);

export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

export interface RealmChanges {
  name?: string;
  description?: string;
  settings: Partial<Pick<RealmScalarSettings, EditableScalarSetting>>;
  groupSettings: Partial<Record<EditableGroupSetting, GroupSettingChange>>;
}

const POSITIVE_OR_UNLIMITED = new Set<string>([
  "message_content_edit_limit_seconds",
  "message_content_delete_limit_seconds",
  "move_messages_within_stream_limit_seconds",
  "move_messages_between_streams_limit_seconds",
]);

const UPLOAD_QUOTAS = new Set<string>(["upload_quota_mib", "upload_quota_per_user_mib"]);

/** Meaning checks the route's schema cannot make; throws BAD_REQUEST naming the setting. */
async function checkScalar(tx: Tx, name: EditableScalarSetting, value: unknown) {
  const bad = () => badRequest(`Bad value for '${name}': ${JSON.stringify(value)}`);
  if (POSITIVE_OR_UNLIMITED.has(name) && value !== null && !(Number.isInteger(value) && (value as number) > 0)) throw bad();
  if (name === "waiting_period_threshold" && !(Number.isInteger(value) && (value as number) >= 0)) throw bad();
  if (name === "max_file_upload_size_mib") {
    if (!Number.isInteger(value) || (value as number) < 0) throw bad();
    if ((value as number) > MAX_FILE_UPLOAD_SIZE_MIB) throw badRequest(`'max_file_upload_size_mib' cannot exceed this server's limit of ${MAX_FILE_UPLOAD_SIZE_MIB} MiB.`);
  }
  if (UPLOAD_QUOTAS.has(name) && value !== null && !(Number.isInteger(value) && (value as number) >= 0)) throw bad();
  if (name === "new_stream_announcements_stream_id" && value !== null) {
    const channel = await findChannelById(tx, value as number);
    if (!channel || channel.isArchived) throw badRequest("Invalid channel ID");
  }
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (name === "") throw badRequest("The organization needs a name.");
  if ([...name].length > MAX_REALM_NAME_LENGTH) throw badRequest(`The organization name is at most ${MAX_REALM_NAME_LENGTH} characters.`);
  return name;
}

function checkDescription(description: string): string {
  if ([...description].length > MAX_REALM_DESCRIPTION_LENGTH) throw badRequest(`The organization description is at most ${MAX_REALM_DESCRIPTION_LENGTH} characters.`);
  return description;
}

/** A group setting's new value, checked against the setting's own rules (model/realmPermissionRules.ts). */
async function checkGroupSetting(tx: Tx, setting: EditableGroupSetting, change: GroupSettingChange, currentGroupId: number): Promise<GroupSettingValue | null> {
  const rules = REALM_GROUP_SETTING_RULES_BY_NAME[setting];
  const value = await checkGroupSettingUpdate(tx, setting, change, currentGroupId, rules);
  if (value !== null && rules.allowedSystemGroups && typeof value === "number") {
    const name = (await findGroupById(tx, value))?.name ?? "";
    if (!rules.allowedSystemGroups.includes(name)) throw badRequest(`'${setting}' setting cannot be set to '${name}' group.`);
  }
  return value;
}

/** What the response tells of each change, as the reference's does: strings as "updated". */
type ChangedData = Record<string, unknown>;

export async function updateRealmSettings(actor: User, changes: RealmChanges): Promise<ChangedData> {
  requireAdministrator(actor, "change the organization's settings");
  const named = [...Object.keys(changes.settings), ...Object.keys(changes.groupSettings)];
  if (named.some((name) => OWNER_ONLY.has(name)) && !isOwner(actor.role)) throw ownerRequired();
  const name = changes.name === undefined ? undefined : checkName(changes.name);
  const description = changes.description === undefined ? undefined : checkDescription(changes.description);

  return await write(async (tx) => {
    const realm = await getRealm(tx);
    const current = realm.settings;
    const scalars: Array<[EditableScalarSetting, unknown]> = [];
    for (const [setting, value] of Object.entries(changes.settings) as Array<[EditableScalarSetting, unknown]>) {
      await checkScalar(tx, setting, value);
      if (current[setting] !== value) scalars.push([setting, value]);
    }
    const groups: Array<readonly [EditableGroupSetting, GroupSettingValue]> = [];
    for (const [setting, change] of Object.entries(changes.groupSettings) as Array<[EditableGroupSetting, GroupSettingChange]>) {
      const value = await checkGroupSetting(tx, setting, change, current[setting]);
      if (value !== null) groups.push([setting, value]);
    }

    const everyone = await activeUserIds(tx);
    const announce = (event: Parameters<Tx["emit"]>[0]) => tx.emit(event, everyone);
    const dict = (data: RealmUpdateDictEvent["data"]) => announce({ type: "realm", op: "update_dict", property: "default", data });
    const data: ChangedData = {};

    if (name !== undefined && name !== realm.name) {
      await updateRealm(tx, { name });
      announce({ type: "realm", op: "update", property: "name", value: name });
      data.name = "updated";
    }
    if (description !== undefined && description !== realm.description) {
      await updateRealm(tx, { description });
      dict({ description });
      data.description = "updated";
    }

    const settings: RealmSettings = { ...current };
    const storedAt = now();
    for (const [setting, value] of groups) {
      const newGroupId = await storeGroupSettingValue(tx, value, current[setting], storedAt);
      await releaseGroupSettingValue(tx, current[setting], newGroupId);
      settings[setting] = newGroupId;
    }
    for (const [setting, value] of scalars) (settings as Record<string, unknown>)[setting] = value;
    if (scalars.length + groups.length > 0) await updateRealm(tx, { settings });

    for (const [setting, value] of scalars) {
      const shown = value === null && NULL_AS_MINUS_ONE.has(setting) ? -1 : (value as string | number | boolean | null);
      data[setting] = typeof shown === "string" ? "updated" : shown;
      if (setting === "mandatory_topics") dict({ topics_policy: value ? "disable_empty_topic" : "allow_empty_topic", mandatory_topics: value as boolean });
      else if (setting === "max_file_upload_size_mib") dict({ max_file_upload_size_mib: uploadLimitMib(value as number) });
      else if (DICT_SCALARS.has(setting)) dict({ [setting]: shown });
      else announce({ type: "realm", op: "update", property: setting, value: shown });
      if (setting === "waiting_period_threshold") await syncFullMembers(tx, value as number);
    }
    for (const [setting] of groups) {
      const value = await groupSettingApiValue(tx, settings[setting]);
      dict({ [setting]: value });
      data[setting] = value;
    }
    return data;
  });
}

/** A setting another action changed as a consequence (archiving the announcements channel): told like a PATCH /realm change. */
export async function announceRealmUpdate(tx: Tx, property: string, value: string | number | boolean | null) {
  tx.emit({ type: "realm", op: "update", property, value }, await activeUserIds(tx));
}
