import type { GroupSettingRules } from "./groupSetting";
import type { RealmGroupSettingName } from "./realmSettings";
import { SystemGroup } from "./roles";

/**
 * Which values each organization permission accepts (the reference's
 * Realm.REALM_PERMISSION_GROUP_SETTINGS): what PATCH /realm checks and what register's
 * server_supported_permission_settings tells clients.
 */
export interface RealmGroupSettingRules extends GroupSettingRules {
  /** When set, the only system groups the setting may name. */
  allowedSystemGroups?: readonly string[];
}

const MEMBERS_AT_MOST: RealmGroupSettingRules = { allowInternet: false, allowNobody: true, allowEveryone: false };
const ANYONE: RealmGroupSettingRules = { allowInternet: false, allowNobody: true, allowEveryone: true };

export const REALM_GROUP_SETTING_RULES_BY_NAME: Record<RealmGroupSettingName, RealmGroupSettingRules> = {
  can_create_public_channel_group: MEMBERS_AT_MOST,
  can_create_private_channel_group: MEMBERS_AT_MOST,
  can_create_web_public_channel_group: {
    ...MEMBERS_AT_MOST,
    requireSystemGroup: true,
    allowedSystemGroups: [SystemGroup.MODERATORS, SystemGroup.ADMINISTRATORS, SystemGroup.OWNERS, SystemGroup.NOBODY],
  },
  can_add_subscribers_group: MEMBERS_AT_MOST,
  can_invite_users_group: MEMBERS_AT_MOST,
  create_multiuse_invite_group: MEMBERS_AT_MOST,
  can_create_groups: MEMBERS_AT_MOST,
  can_manage_all_groups: { ...MEMBERS_AT_MOST, allowNobody: false },
  can_mention_many_users_group: ANYONE,
  can_create_bots_group: MEMBERS_AT_MOST,
  can_create_write_only_bots_group: MEMBERS_AT_MOST,
  can_delete_any_message_group: MEMBERS_AT_MOST,
  can_delete_own_message_group: ANYONE,
  can_move_messages_between_channels_group: MEMBERS_AT_MOST,
  can_move_messages_between_topics_group: ANYONE,
  can_resolve_topics_group: ANYONE,
  can_access_all_users_group: {
    allowInternet: false,
    allowNobody: false,
    allowEveryone: true,
    requireSystemGroup: true,
    allowedSystemGroups: [SystemGroup.EVERYONE, SystemGroup.MEMBERS],
  },
  can_add_custom_emoji_group: MEMBERS_AT_MOST,
  can_manage_billing_group: { ...MEMBERS_AT_MOST, allowNobody: false },
  can_summarize_topics_group: ANYONE,
  direct_message_permission_group: ANYONE,
  direct_message_initiator_group: ANYONE,
};
