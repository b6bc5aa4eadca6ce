/**
 * A group-setting value (spec convention 7): the ID of a named user group, or an anonymous
 * set of users and groups. Stored always as a group ID; an anonymous value becomes an unnamed
 * group row, so one resolver answers every permission question.
 */
export type GroupSettingValue = number | AnonymousGroupSetting;
export interface AnonymousGroupSetting {
  direct_members: number[];
  direct_subgroups: number[];
}

export const isAnonymousSetting = (value: GroupSettingValue): value is AnonymousGroupSetting => typeof value !== "number";

/**
 * Which values a permission setting accepts and who may exercise it (the reference's
 * GroupPermissionSetting). When allowEveryone is false, guests never hold the permission,
 * even if the setting's group includes them.
 */
export interface GroupSettingRules {
  allowInternet: boolean;
  allowNobody: boolean;
  allowEveryone: boolean;
  /** role:owners is refused only where a setting says so (can_mention_group). */
  allowOwners?: boolean;
  requireSystemGroup?: boolean;
}
