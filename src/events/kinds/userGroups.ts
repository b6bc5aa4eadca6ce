import type { ApiUserGroup } from "../../shapes/userGroups";
import type { UserGroupSettingName } from "../../model/userGroupSettings";

/** User group events (reference: get-events, type "user_group"), sent to every active user. */

export interface UserGroupAddEvent {
  type: "user_group";
  op: "add";
  group: ApiUserGroup;
}

/**
 * One changed property per event. A deactivation (data.deactivated) reaches clients without
 * include_deactivated_groups as a remove, a reactivation as an add (events/filters.ts).
 */
export interface UserGroupUpdateEvent {
  type: "user_group";
  op: "update";
  group_id: number;
  data: Partial<Pick<ApiUserGroup, "name" | "description" | "deactivated" | UserGroupSettingName>>;
}

export interface UserGroupMembersEvent {
  type: "user_group";
  op: "add_members" | "remove_members";
  group_id: number;
  user_ids: number[];
}

export interface UserGroupSubgroupsEvent {
  type: "user_group";
  op: "add_subgroups" | "remove_subgroups";
  group_id: number;
  direct_subgroup_ids: number[];
}

export type UserGroupEvent = UserGroupAddEvent | UserGroupUpdateEvent | UserGroupMembersEvent | UserGroupSubgroupsEvent;
