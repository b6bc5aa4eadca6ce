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
