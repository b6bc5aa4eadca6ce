import { canAccessUser } from "../access/userAccess";
import { accessUser } from "../access/users";
import { getRealm } from "../db/realm";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { findUserStatus } from "../db/userStatus";
import { badRequest } from "../http/errors";
import { statusToApi, type ApiUserStatus } from "../shapes/userStatus";

/** GET /users/{user_id}/status: any active human the viewer may see; others are "No such user", as in the reference. */
export function getUserStatus(viewer: User, userId: number): Promise<ApiUserStatus> {
  return read(async (db) => {
    const target = await accessUser(db, userId, { allowBots: false });
    if (!(await canAccessUser(db, viewer, target, await getRealm(db)))) throw badRequest("No such user");
    return statusToApi(target, await findUserStatus(db, target.id));
  });
}
