import { listMutedUsers } from "../../db/mutedUsers";
import type { Reader } from "../../db/types";
import type { UserStateContext } from "./context";

/** muted_users: whom the viewer muted, and when. */
export async function mutedUsersState(db: Reader, { viewer }: UserStateContext) {
  return { muted_users: await listMutedUsers(db, viewer.id) };
}
