import { canAccessAllUsers, canAccessUser, canRestrictedViewerAccess } from "../access/userAccess";
import { accessUser, accessUserByEmail } from "../access/users";
import { getRealm, realmHost, type Realm } from "../db/realm";
import { realmNow } from "../db/realmNow";
import { read } from "../db/transaction";
import { listUsers, type User } from "../db/users";
import { badRequest } from "../http/errors";
import { inaccessibleUserToApi } from "../shapes/inaccessibleUser";
import { userToApi, type ApiUser, type UserView } from "../shapes/users";

export interface MemberQuery {
  clientGravatar: boolean;
  includeCustomProfileFields: boolean;
}

const viewFor = (realm: Realm, viewer: User, query: MemberQuery): UserView => ({
  viewer,
  realmHost: realmHost(realm),
  clientGravatar: query.clientGravatar,
  profileData: query.includeCustomProfileFields,
});

/**
 * GET /users: everyone in the organization, deactivated included; system bots are not members.
 * A guest restricted by can_access_all_users_group sees placeholders for those hidden from them.
 */
export function listMembers(viewer: User, query: MemberQuery): Promise<ApiUser[]> {
  return read(async (db) => {
    const realm = await getRealm(db);
    const view = viewFor(realm, viewer, query);
    const seesEveryone = await canAccessAllUsers(db, viewer, realm);
    return (await listUsers(db))
      .filter((user) => !user.isSystemBot)
      .map((user) => (seesEveryone || canRestrictedViewerAccess(viewer, user) ? userToApi(user, view) : inaccessibleUserToApi(user.id, realm)));
  });
}

/** GET /users/{user_id} and GET /users/{email}: one path segment, so the key is either. */
export function getMember(viewer: User, idOrEmail: string, query: MemberQuery): Promise<ApiUser> {
  return read(async (db) => {
    const realm = await getRealm(db);
    const view = viewFor(realm, viewer, query);
    const user = /^\d+$/.test(idOrEmail) ? await accessUser(db, Number(idOrEmail), { allowDeactivated: true }) : await accessUserByEmail(db, viewer, idOrEmail, view.realmHost);
    if (!(await canAccessUser(db, viewer, user, realm))) throw badRequest("Insufficient permission: this organization does not let you see this user.");
    return userToApi(user, view);
  });
}

/** GET /users/me. */
export async function getOwnProfile(user: User): Promise<ApiUser> {
  const realm = await realmNow();
  if (!realm) throw new Error("The organization has not been set up");
  return userToApi(user, { viewer: user, realmHost: realmHost(realm), profileData: true });
}
