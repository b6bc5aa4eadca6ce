import { inviteAudience, usableInvitation } from "../access/invites";
import { userGroupAudience } from "../access/userGroups";
import { defaultChannelIds, findChannelById, type Channel } from "../db/channels";
import { addGroupMembers, findGroupById } from "../db/userGroups";
import { pendingEmailInvitesTo, setInviteStatus, type Invite } from "../db/invites";
import { getRealm } from "../db/realm";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import { findUserByEmail, findUserById, normalizeEmail, type User } from "../db/users";
import { badRequest } from "../http/errors";
import type { Role } from "../model/roles";
import { notificationBot, silentMention } from "./channelAnnouncements";
import { sendMessageInTransaction } from "./sendMessage";
import { addSubscriptions } from "./subscriptionChanges";
import { addAccount, checkFullName } from "./users";
import { hashPassword } from "./passwordHashing";

/**
 * Signing up with an invitation (the page in web/invite/): the new account gets the role,
 * channels and groups the invitation named, the inviter may be told by the notification bot,
 * and an e-mail invitation is spent. Expiry and revocation are checked again inside the
 * transaction, so a link revoked while the form was open does not work.
 */

export interface SignUp {
  /** Only for a reusable link; an e-mail invitation fixes the address. */
  email?: string;
  fullName: string;
  password: string;
}

const MIN_PASSWORD_LENGTH = 8;

export async function acceptInvitation(key: string, input: SignUp): Promise<User> {
  const fullName = checkFullName(input.fullName);
  if (input.password.length < MIN_PASSWORD_LENGTH) throw badRequest(`The password is too weak: use at least ${MIN_PASSWORD_LENGTH} characters.`);
  // Hashing is slow and must not hold the write lock; the invitation is checked again inside.
  const passwordHash = await hashPassword(input.password);
  return write(async (tx) => {
    const invite = await usableInvitation(tx, key);
    const email = invite.isMultiuse ? checkedAddress(input.email ?? "") : invite.email!;
    if (await findUserByEmail(tx, email)) throw badRequest("An account with this e-mail address already exists: sign in instead.");
    const user = await addAccount(tx, { email, fullName, role: invite.invitedAs as Role, passwordHash });
    await addSubscriptions(tx, await invitedChannels(tx, invite), [user]);
    await joinGroups(tx, invite, user);
    await spendEmailInvitations(tx, email, user);
    await notifyReferrer(tx, invite, user);
    return user;
  });
}

function checkedAddress(raw: string): string {
  const email = normalizeEmail(raw);
  if (!/^[^\s@,;<>()"]+@[^\s@,;<>()"]+$/.test(email) || email.length > 254) throw badRequest("Enter a valid e-mail address.");
  return email;
}

/** The named channels plus, if asked, today's default channels; gone or archived ones are skipped. */
async function invitedChannels(tx: Tx, invite: Invite): Promise<Channel[]> {
  const ids = new Set(invite.streamIds);
  if (invite.includeRealmDefaultSubscriptions) for (const id of await defaultChannelIds(tx)) ids.add(id);
  const channels: Channel[] = [];
  for (const id of ids) {
    const channel = await findChannelById(tx, id);
    if (channel !== undefined && !channel.isArchived) channels.push(channel);
  }
  return channels;
}

/** Named groups that still exist and are active; system groups follow the role instead. */
async function joinGroups(tx: Tx, invite: Invite, user: User) {
  const audience = await userGroupAudience(tx);
  for (const groupId of invite.groupIds) {
    const group = await findGroupById(tx, groupId);
    if (!group || group.name === null || group.isSystemGroup || group.deactivated) continue;
    await addGroupMembers(tx, groupId, [user.id]);
    tx.emit({ type: "user_group", op: "add_members", group_id: groupId, user_ids: [user.id] }, audience);
  }
}

/** Every pending e-mail invitation to the address is spent: one account per address. */
async function spendEmailInvitations(tx: Tx, email: string, user: User) {
  const audience = new Set<number>();
  for (const invite of await pendingEmailInvitesTo(tx, email)) {
    await setInviteStatus(tx, invite.id, "accepted", user.id);
    for (const id of await inviteAudience(tx, invite)) audience.add(id);
  }
  if (audience.size > 0) tx.emit({ type: "invites_changed" }, [...audience]);
}

async function notifyReferrer(tx: Tx, invite: Invite, user: User) {
  if (!invite.notifyReferrerOnJoin) return;
  const referrer = await findUserById(tx, invite.invitedById);
  if (!referrer?.isActive || referrer.isBot) return;
  const content = `${silentMention(user)} accepted your invitation to join ${(await getRealm(tx)).name}!`;
  await sendMessageInTransaction(tx, await notificationBot(tx), { type: "private", to: JSON.stringify([referrer.id]), content, client: "Internal", readBySender: false });
}
export { InvitationUnusable, type UnusableReason } from "../access/invites";
