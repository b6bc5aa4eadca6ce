import { listMutedUsers } from "../../db/mutedUsers";
import type { Reader } from "../../db/types";
import type { UserStateContext } from "./context";

/** muted_users: whom the viewer muted, and when. */
export function mutedUsersState(db: Reader, { viewer }: UserStateContext) {
  return { muted_users: listMutedUsers(db, viewer.id) };
}
