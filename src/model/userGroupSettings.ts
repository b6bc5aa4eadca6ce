import type { GroupSettingRules } from "./groupSetting";
import { SystemGroup, type SystemGroupName } from "./roles";

/** Limits on what a user group is called and described as. */
export const MAX_USER_GROUP_NAME_LENGTH = 100;
export const MAX_USER_GROUP_DESCRIPTION_LENGTH = 1024;
/** Names clients would read as a mention or a system group (the reference's reserved prefixes). */
export const RESERVED_GROUP_NAME_PREFIXES = ["@", "role:", "user:", "stream:", "channel:"];

/** A new group's default: a system group, or an anonymous value holding just its creator. */
export type UserGroupDefault = SystemGroupName | "group_creator";

/**
 * The six permission settings of a user group (spec 2.9): which values each accepts, who it
 * starts as, and its column. Guests never hold a setting that does not allow role:everyone.
 */
export const USER_GROUP_SETTINGS = {
  can_add_members_group: {
    column: "canAddMembersGroup",
    rules: { allowInternet: false, allowNobody: true, allowEveryone: false },
    default: "group_creator" as UserGroupDefault,
  },
  can_join_group: {
    column: "canJoinGroup",
    rules: { allowInternet: false, allowNobody: true, allowEveryone: false },
    default: SystemGroup.NOBODY as UserGroupDefault,
  },
  can_leave_group: {
    column: "canLeaveGroup",
    rules: { allowInternet: false, allowNobody: true, allowEveryone: true },
    default: SystemGroup.EVERYONE as UserGroupDefault,
  },
  can_manage_group: {
    column: "canManageGroup",
    rules: { allowInternet: false, allowNobody: true, allowEveryone: false },
    default: "group_creator" as UserGroupDefault,
  },
  can_mention_group: {
    column: "canMentionGroup",
    rules: { allowInternet: false, allowNobody: true, allowEveryone: true, allowOwners: false },
    default: SystemGroup.EVERYONE as UserGroupDefault,
  },
  can_remove_members_group: {
    column: "canRemoveMembersGroup",
    rules: { allowInternet: false, allowNobody: true, allowEveryone: false },
    default: SystemGroup.NOBODY as UserGroupDefault,
  },
} as const satisfies Record<string, { column: string; rules: GroupSettingRules; default: UserGroupDefault }>;

export type UserGroupSettingName = keyof typeof USER_GROUP_SETTINGS;
export const USER_GROUP_SETTING_NAMES = Object.keys(USER_GROUP_SETTINGS) as UserGroupSettingName[];
