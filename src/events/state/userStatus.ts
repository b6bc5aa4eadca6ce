import type { Reader } from "../../db/types";
import { listUserStatuses } from "../../db/userStatus";
import { listUsers } from "../../db/users";
import { canAccessAllUsers, canRestrictedViewerAccess } from "../../access/userAccess";
import { statusToApi } from "../../shapes/userStatus";
import type { UserStateContext } from "./context";

/** user_status: by user ID, every active user the viewer may see who is away or has a status set. */
export async function userStatusState(db: Reader, { viewer, realm }: UserStateContext) {
  const seesEveryone = await canAccessAllUsers(db, viewer, realm);
  const rows = new Map((await listUserStatuses(db)).map((row) => [row.userId, row]));
  const statuses: Record<string, ReturnType<typeof statusToApi>> = {};
  for (const user of await listUsers(db)) {
    if (!user.isActive || !(seesEveryone || canRestrictedViewerAccess(viewer, user))) continue;
    const status = statusToApi(user, rows.get(user.id));
    if (Object.keys(status).length > 0) statuses[String(user.id)] = status;
  }
  return { user_status: statuses };
}
