import { snapshot } from "../../ui/api";
import type { GroupSettingValue, PermissionRule } from "./groupSettingPicker";

/**
 * The organization's settings as clients learn them: the register snapshot (there is no
 * GET /realm in the API). Only the sections asked for.
 */

export type RealmState = Record<string, unknown> & {
  realm_name: string;
  realm_description: string;
  server_supported_permission_settings: { realm: Record<string, PermissionRule>; group: Record<string, PermissionRule> };
};

export async function loadRealmState(sections: string[] = ["realm"]): Promise<RealmState> {
  return snapshot<RealmState>({ fetch_event_types: sections, client_capabilities: { include_deactivated_groups: true } });
}

/** A group setting's current value in the snapshot (realm_<name>). */
export const realmGroupSetting = (state: RealmState, name: string) => state[`realm_${name}`] as GroupSettingValue;

/** Two group-setting values alike, as sets (the server compares them that way). */
export function sameGroupSetting(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === "number" || typeof b === "number") return a === b;
  const same = (x: number[], y: number[]) => x.length === y.length && x.every((id) => y.includes(id));
  return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
}
