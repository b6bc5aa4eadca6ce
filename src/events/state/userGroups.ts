import type { Reader } from "../../db/types";
import { listUserGroupsForApi } from "../../shapes/userGroups";
import type { UserStateContext } from "./context";

/** realm_user_groups: deactivated groups only for clients with include_deactivated_groups. */
export async function userGroupsState(db: Reader, { spec }: UserStateContext) {
  return { realm_user_groups: await listUserGroupsForApi(db, { includeDeactivated: spec.capabilities.include_deactivated_groups }) };
}
