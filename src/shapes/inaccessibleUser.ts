import type { Realm } from "../db/realm";
import { realmHost } from "../db/realm";
import { Role } from "../model/roles";
import { standInEmail, type ApiUser } from "./users";

export const INACCESSIBLE_USER_NAME = "Unknown user";

/**
 * What a guest who may not see a user is shown instead (the reference's "Unknown user"): the
 * usual shape, placeholder data, and nothing but the user ID that varies.
 */
export function inaccessibleUserToApi(userId: number, realm: Pick<Realm, "url" | "dateCreated">): ApiUser {
  return {
    user_id: userId,
    delivery_email: null,
    email: standInEmail(userId, realmHost(realm)),
    full_name: INACCESSIBLE_USER_NAME,
    date_joined: new Date(realm.dateCreated * 1000).toISOString().replace("Z", "+00:00"),
    is_active: true,
    is_owner: false,
    is_admin: false,
    is_guest: false,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
    role: Role.MEMBER,
    timezone: "",
    avatar_url: `${realm.url}/static/images/unknown-user-avatar.png`,
    avatar_version: 1,
    profile_data: {},
  };
}
