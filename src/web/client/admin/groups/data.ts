import { loadGroupSettingChoices, type GroupSettingChoices, type GroupSettingValue, type PermissionRule, type PickerGroup } from "../shared/groupSettingPicker";
import { loadRealmState } from "../shared/realmState";

/** What the group pages share: the data the section loads, a group as the API gives it, and its one-line summary. */

export interface GroupsData extends GroupSettingChoices {
  /** Each group setting's rules, as the server states them. */
  rules: Record<string, PermissionRule>;
}

export async function loadGroupsData(): Promise<GroupsData> {
  const [choices, realm] = await Promise.all([loadGroupSettingChoices(), loadRealmState(["realm"])]);
  return { ...choices, rules: realm.server_supported_permission_settings.group };
}

/** A user group as GET /user_groups gives it. */
export type UserGroup = PickerGroup & Record<string, unknown> & { can_mention_group: GroupSettingValue };

/** "3 people, 1 group": what a group directly holds. */
export function memberSummary(group: PickerGroup): string {
  const people = group.members.length;
  const groups = group.direct_subgroup_ids.length;
  const parts = [`${people} ${people === 1 ? "person" : "people"}`];
  if (groups > 0) parts.push(`${groups} ${groups === 1 ? "group" : "groups"}`);
  return parts.join(", ");
}
