import { systemGroupsByName } from "../../db/userGroups";
import type { Realm } from "../../db/realm";
import type { Reader } from "../../db/types";
import { CHANNEL_GROUP_SETTINGS } from "../../model/channelSettings";
import type { GroupSettingRules } from "../../model/groupSetting";
import { REALM_GROUP_SETTING_DEFAULTS, type RealmGroupSettingName } from "../../model/realmSettings";
import { SystemGroup } from "../../model/roles";
import { USER_GROUP_SETTINGS } from "../../model/userGroupSettings";
import { REALM_GROUP_SETTING_RULES_BY_NAME } from "../../model/realmPermissionRules";

/**
 * The realm section's permission fields that are not settings of their own: the deprecated
 * enum forms older clients still read (and the mobile app requires realm_wildcard_mention_policy),
 * realm_can_set_topics_policy_group, and server_supported_permission_settings.
 */

/** The reference's enum values for a system group, per deprecated policy field. */
const COMMON_POLICY: Partial<Record<string, number>> = {
  [SystemGroup.MEMBERS]: 1,
  [SystemGroup.ADMINISTRATORS]: 2,
  [SystemGroup.FULL_MEMBERS]: 3,
  [SystemGroup.MODERATORS]: 4,
};
const WEB_PUBLIC_POLICY: Partial<Record<string, number>> = {
  [SystemGroup.ADMINISTRATORS]: 2,
  [SystemGroup.MODERATORS]: 4,
  [SystemGroup.NOBODY]: 6,
  [SystemGroup.OWNERS]: 7,
};
const WILDCARD_MENTION_POLICY: Partial<Record<string, number>> = {
  [SystemGroup.EVERYONE]: 1,
  [SystemGroup.MEMBERS]: 2,
  [SystemGroup.FULL_MEMBERS]: 3,
  [SystemGroup.ADMINISTRATORS]: 5,
  [SystemGroup.NOBODY]: 6,
  [SystemGroup.MODERATORS]: 7,
};

/**
 * Each deprecated field with its group setting, its enum, and the widest value: the reference
 * calls these "a superset" of who holds the permission, so a setting no system group matches
 * (a custom or anonymous group) reports the value that admits the most people.
 */
const DEPRECATED_POLICIES: Array<[field: string, setting: RealmGroupSettingName, values: Partial<Record<string, number>>, widest: number]> = [
  ["realm_create_public_stream_policy", "can_create_public_channel_group", COMMON_POLICY, 1],
  ["realm_create_private_stream_policy", "can_create_private_channel_group", COMMON_POLICY, 1],
  ["realm_create_web_public_stream_policy", "can_create_web_public_channel_group", WEB_PUBLIC_POLICY, 4],
  ["realm_wildcard_mention_policy", "can_mention_many_users_group", WILDCARD_MENTION_POLICY, 1],
];

/**
 * Parley has no per-channel topics_policy, so nobody changes one; the setting is reported at
 * the reference's default (role:members) for clients that read it.
 */
const SET_TOPICS_POLICY_DEFAULT = SystemGroup.MEMBERS;

export async function realmPermissionFields(db: Reader, realm: Realm) {
  const systemGroups = await systemGroupsByName(db);
  const nameOf = new Map([...systemGroups].map(([name, group]) => [group.id, name]));
  const fields: Record<string, unknown> = {};
  for (const [field, setting, values, widest] of DEPRECATED_POLICIES) {
    const name = nameOf.get(realm.settings[setting]);
    fields[field] = (name !== undefined ? values[name] : undefined) ?? widest;
  }
  fields.realm_can_set_topics_policy_group = systemGroups.get(SET_TOPICS_POLICY_DEFAULT)?.id;
  fields.server_supported_permission_settings = SUPPORTED_PERMISSION_SETTINGS;
  return fields;
}

/** The reference's GroupPermissionSetting for one setting, from the rules Parley enforces. */
function permissionSetting(rules: GroupSettingRules & { allowedSystemGroups?: readonly string[] }, defaultGroupName: string, defaultForSystemGroups: string | null = null) {
  return {
    require_system_group: rules.requireSystemGroup ?? false,
    allow_internet_group: rules.allowInternet,
    allow_nobody_group: rules.allowNobody,
    allow_everyone_group: rules.allowEveryone,
    default_group_name: defaultGroupName,
    default_for_system_groups: defaultForSystemGroups,
    allowed_system_groups: [...(rules.allowedSystemGroups ?? [])],
  };
}

/** System groups' own settings (db/userGroups.ts createSystemGroups): nobody manages them, everyone may mention them. */
const SYSTEM_GROUPS_SETTING: Record<string, string> = { can_mention_group: SystemGroup.EVERYONE };

const SUPPORTED_PERMISSION_SETTINGS = Object.freeze({
  realm: Object.fromEntries(
    Object.entries(REALM_GROUP_SETTING_DEFAULTS).map(([name, group]) => [name, permissionSetting(REALM_GROUP_SETTING_RULES_BY_NAME[name as RealmGroupSettingName], group)]),
  ),
  stream: Object.fromEntries(Object.entries(CHANNEL_GROUP_SETTINGS).map(([name, setting]) => [name, permissionSetting(setting.rules, setting.default)])),
  group: Object.fromEntries(
    Object.entries(USER_GROUP_SETTINGS).map(([name, setting]) => [name, permissionSetting(setting.rules, setting.default, SYSTEM_GROUPS_SETTING[name] ?? SystemGroup.NOBODY)]),
  ),
});
