import { defaultChannelIds, findChannelById, type Channel } from "../db/channels";
import { findInviteById, findInviteByKey, isUsable, type Invite } from "../db/invites";
import { getRealm } from "../db/realm";
import type { Reader } from "../db/types";
import { activeAdministratorIds, findUserById, type User } from "../db/users";
import { badRequest } from "../http/errors";
import { now } from "../model/clock";
import { ALL_ROLES, Role, isAdministrator, isRole } from "../model/roles";
import { canAddSubscribers, channelViewer, hasContentAccess } from "./channels";
import { accessUserGroupForUpdate, holdsRealmGroupPermission } from "./userGroups";

/**
 * Who may invite, to what, and who may manage an invitation (spec 2.10, 4.8, 4.12, 5.4).
 * E-mail invitations need the realm's can_invite_users_group, reusable links its
 * create_multiuse_invite_group; the role given is capped at the inviter's own; channels must
 * be default channels or ones the inviter may add subscribers to; groups ones they may add
 * members to. Invitations are managed by their creator and by organization administrators.
 */

export const INSUFFICIENT_PERMISSION = "Insufficient permission";

export async function requireInvitePermission(db: Reader, actor: User, multiuse: boolean) {
  const setting = multiuse ? "create_multiuse_invite_group" : "can_invite_users_group";
  if (!(await holdsRealmGroupPermission(db, actor, setting))) throw badRequest(INSUFFICIENT_PERMISSION);
}

/** The role an invitation gives: a role at all, and no more privileged than the inviter's. */
export function checkInviteAs(actor: User, inviteAs: number): Role {
  if (!isRole(inviteAs)) throw badRequest(`Invalid invite_as ${inviteAs}: use one of ${ALL_ROLES.join(", ")}.`);
  // Lower numbers carry more privilege: a moderator (300) may invite moderators, members and guests.
  if (inviteAs < actor.role) throw badRequest(INSUFFICIENT_PERMISSION);
  return inviteAs;
}

/**
 * The channels an invitation names, deduplicated. Any channel the inviter cannot reach is
 * "Invalid channel ID", so the answer reveals no private channel; a reachable one must be a
 * default channel or one they may add others to.
 */
export async function checkInviteChannels(db: Reader, actor: User, channelIds: number[]): Promise<number[]> {
  const wanted = [...new Set(channelIds)];
  if (wanted.length === 0) return wanted;
  const realm = await getRealm(db);
  const viewer = await channelViewer(db, actor);
  const defaults = new Set(await defaultChannelIds(db));
  const channels: Channel[] = [];
  for (const id of wanted) {
    const channel = await findChannelById(db, id);
    if (!channel || channel.isArchived || !hasContentAccess(viewer, channel)) throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    channels.push(channel);
  }
  const mayAddAnywhere = await holdsRealmGroupPermission(db, actor, "can_add_subscribers_group", viewer.groupIds);
  for (const channel of channels) {
    if (defaults.has(channel.id)) continue;
    if (!mayAddAnywhere && !canAddSubscribers(viewer, channel, realm.settings.can_add_subscribers_group)) {
      throw badRequest("You do not have permission to subscribe other users to channels.");
    }
  }
  return wanted;
}

/** The groups an invitation names, each one the inviter may add members to. */
export async function checkInviteGroups(db: Reader, actor: User, groupIds: number[]): Promise<number[]> {
  const wanted = [...new Set(groupIds)];
  for (const id of wanted) {
    const group = await accessUserGroupForUpdate(db, actor, id, ["can_add_members_group"]);
    if (group.deactivated) throw badRequest(`User group ${id} is deactivated.`);
  }
  return wanted;
}

export const mayManageInvite = (actor: User, invite: Invite) => isAdministrator(actor.role) || invite.invitedById === actor.id;

/**
 * An invitation of this kind the actor may revoke or resend. Unknown IDs, other kinds, spent
 * ones and other people's are all "No such invitation"; a revoked link says so.
 */
export async function accessInviteToManage(db: Reader, actor: User, inviteId: number, multiuse: boolean, at: number): Promise<Invite> {
  const invite = await findInviteById(db, inviteId);
  if (!invite || invite.isMultiuse !== multiuse || !mayManageInvite(actor, invite)) throw badRequest("No such invitation");
  if (multiuse && invite.status === "revoked") throw badRequest("Invitation has already been revoked");
  if (!isUsable(invite, at)) throw badRequest("No such invitation");
  return invite;
}

/** Who hears invites_changed for an invitation: active administrators and its creator. */
export async function inviteAudience(db: Reader, invite: Pick<Invite, "invitedById">): Promise<number[]> {
  return [...new Set([...(await activeAdministratorIds(db)), invite.invitedById])];
}

/** Whether the user may list invitations: every member, not guests (they cannot invite). */
export function requireInviteListAccess(actor: User) {
  if (actor.role === Role.GUEST) throw badRequest("Not allowed for guest users");
}


/** Why a link no longer works, in words the page shows as they are. */
export type UnusableReason = "unknown" | "expired" | "revoked" | "used";

export class InvitationUnusable extends Error {
  constructor(readonly reason: UnusableReason) {
    super(`This invitation link is ${reason}.`);
  }
}

/** The invitation behind a key, or why it cannot be used now. */
export async function usableInvitation(db: Reader, key: string, at = now()): Promise<Invite> {
  const invite = await findInviteByKey(db, key);
  if (!invite) throw new InvitationUnusable("unknown");
  if (invite.status === "revoked") throw new InvitationUnusable("revoked");
  if (invite.status === "accepted") throw new InvitationUnusable("used");
  // An inviter who was deactivated takes their invitations with them, as in the reference.
  if (!(await findUserById(db, invite.invitedById))?.isActive) throw new InvitationUnusable("revoked");
  if (!isUsable(invite, at)) throw new InvitationUnusable("expired");
  return invite;
}

