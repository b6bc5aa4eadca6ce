import { canAccessAllUsers, canRestrictedViewerAccess } from "../../access/userAccess";
import { isUserInGroup } from "../../db/userGroups";
import { realmHost } from "../../db/realm";
import type { Reader } from "../../db/types";
import { listUsers } from "../../db/users";
import { isAdministrator, isGuest, isModerator, isOwner } from "../../model/roles";
import { inaccessibleUserToApi } from "../../shapes/inaccessibleUser";
import { avatarSource, avatarUrl, avatarUrlMedium, userToApi, type ApiUser, type UserView } from "../../shapes/users";
import type { UserStateContext } from "./context";

/**
 * realm_user: everyone in the organization as the viewer may see them, plus the viewer's own
 * account and permissions. A guest restricted by can_access_all_users_group sees others as
 * "Unknown user", or not at all with the user_list_incomplete capability.
 */
export async function realmUserState(db: Reader, context: UserStateContext) {
  const { viewer, realm, spec } = context;
  const view: UserView = { viewer, realmHost: realmHost(realm), clientGravatar: spec.clientGravatar, profileData: true };
  const restricted = !(await canAccessAllUsers(db, viewer, realm));
  const active: ApiUser[] = [];
  const deactivated: ApiUser[] = [];
  const crossRealmBots: Array<ApiUser & { is_system_bot: true }> = [];
  for (const user of await listUsers(db)) {
    if (user.isSystemBot) crossRealmBots.push({ ...userToApi(user, view), is_system_bot: true });
    else if (restricted && !canRestrictedViewerAccess(viewer, user)) {
      // The placeholder says is_active true, as the reference's does, so it joins realm_users.
      if (!spec.capabilities.user_list_incomplete) active.push(inaccessibleUserToApi(user.id, realm));
    } else if (user.isActive) active.push(userToApi(user, view));
    else deactivated.push(withoutIdleAvatar(userToApi(user, view), context));
  }
  return { realm_users: active, realm_non_active_users: deactivated, cross_realm_bots: crossRealmBots, ...(await ownAccount(db, context)) };
}

/**
 * With user_avatar_url_field_optional the server may leave avatar_url out; like the reference,
 * which does so for long-idle accounts, we leave it out for deactivated ones.
 */
function withoutIdleAvatar(user: ApiUser, { spec }: UserStateContext): ApiUser {
  if (!spec.capabilities.user_avatar_url_field_optional) return user;
  const { avatar_url: _omitted, ...rest } = user;
  return rest as ApiUser;
}

async function ownAccount(db: Reader, { viewer, realm }: UserStateContext) {
  // Guests never hold these permissions, whatever the groups say (allow_everyone_group false).
  const may = async (groupId: number) => !isGuest(viewer.role) && (await isUserInGroup(db, viewer.id, groupId));
  const settings = realm.settings;
  const canCreatePublic = await may(settings.can_create_public_channel_group);
  const canCreatePrivate = await may(settings.can_create_private_channel_group);
  const canCreateWebPublic = settings.enable_spectator_access && (await may(settings.can_create_web_public_channel_group));
  const canSubscribeOthers = await may(settings.can_add_subscribers_group);
  const canInviteOthers = await may(settings.can_invite_users_group);
  return {
    user_id: viewer.id,
    email: viewer.email,
    delivery_email: viewer.deliveryEmail ?? viewer.email,
    full_name: viewer.fullName,
    avatar_source: avatarSource(viewer),
    avatar_url: avatarUrl(viewer),
    avatar_url_medium: avatarUrlMedium(viewer),
    is_owner: isOwner(viewer.role),
    is_admin: isAdministrator(viewer.role),
    is_moderator: isModerator(viewer.role),
    is_guest: isGuest(viewer.role),
    can_create_streams: canCreatePublic || canCreatePrivate,
    can_create_public_streams: canCreatePublic,
    can_create_private_streams: canCreatePrivate,
    can_create_web_public_streams: canCreateWebPublic,
    can_subscribe_other_users: canSubscribeOthers,
    can_invite_others_to_realm: canInviteOthers,
  };
}
