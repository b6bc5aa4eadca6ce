import { ChannelAudience } from "../access/channels";
import { userGroupAudience } from "../access/userGroups";
import { splitAudienceByAccess } from "../access/userAccess";
import { accessBot, accessUser, botAdministratorIds, requireAccountAdministrator, requireAdministrator } from "../access/users";
import { activeChannelIdsOfUser, activeSubscriberIds, findChannelById, type Channel } from "../db/channels";
import { namedGroupIdsOfMember } from "../db/userGroups";
import { enqueueOutbox } from "../db/outbox";
import { getRealm } from "../db/realm";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import { countActiveHumans, countActiveOwners, findUserById, listBotsOwnedBy, setUserActive, type User } from "../db/users";
import { dropQueuesOfUser } from "../events/registry";
import { badRequest, ownerRequired } from "../http/errors";
import { isOwner } from "../model/roles";
import { emitPeerEvents, groupByChannel } from "./subscriptionChanges";
import { now } from "../model/clock";
import { usersWhoCanSee } from "../access/userAccess";

/**
 * Deactivating and reactivating accounts (spec 3, 4.16). A deactivated account keeps its
 * messages but cannot sign in, its API key is refused (http/auth checks is_active on every
 * request) and its event queues end right after the COMMIT. Deactivating a person also
 * deactivates the bots they own, as the reference does; reactivating them does not bring the
 * bots back.
 */

const MAX_COMMENT_LENGTH = 2000;

/** Subscriber lists leave deactivated users out, so those who see the lists are told (reference: feature level 377). */
async function announceSubscriberChange(tx: Tx, account: User, op: "peer_add" | "peer_remove") {
  const channels: Channel[] = [];
  for (const id of await activeChannelIdsOfUser(tx, account.id)) {
    const channel = await findChannelById(tx, id);
    if (channel !== undefined) channels.push(channel);
  }
  if (channels.length === 0) return;
  const byChannel = groupByChannel(channels.map((channel) => ({ user: account, channel })));
  await emitPeerEvents(tx, op, byChannel, await activeSubscriberIds(tx, [...byChannel.keys()]), new ChannelAudience(tx));
}

/**
 * Group member lists leave deactivated users out too. Clients that see the user drop them
 * from every group on the realm_user event; the rest are told group by group, and on return
 * everyone is (reference: user_group add_members/remove_members, feature level 303).
 */
async function announceGroupMembership(tx: Tx, account: User, isActive: boolean) {
  const groupIds = await namedGroupIdsOfMember(tx, account.id);
  const audience = isActive ? await userGroupAudience(tx) : (await splitAudienceByAccess(tx, account, await getRealm(tx))).notSeeing.map((viewer) => viewer.id);
  if (audience.length === 0) return;
  for (const groupId of groupIds) tx.emit({ type: "user_group", op: isActive ? "add_members" : "remove_members", group_id: groupId, user_ids: [account.id] }, audience);
}

async function setActive(tx: Tx, account: User, isActive: boolean) {
  await setUserActive(tx, account.id, isActive);
  const changed = { ...account, isActive };
  // The reference sends the subscriber change before the realm_user event.
  await announceSubscriberChange(tx, changed, isActive ? "peer_add" : "peer_remove");
  tx.emit({ type: "realm_user", op: "update", person: { user_id: account.id, is_active: isActive } }, await usersWhoCanSee(tx, changed));
  await announceGroupMembership(tx, changed, isActive);
  if (account.isBot) tx.emit({ type: "realm_bot", op: "update", bot: { user_id: account.id, is_active: isActive } }, await botAdministratorIds(tx, changed));
}

/** Deactivates an account and, for a person, their active bots first; returns every account deactivated. */
async function deactivateWithBots(tx: Tx, account: User): Promise<number[]> {
  const bots = account.isBot ? [] : await listBotsOwnedBy(tx, account.id, { activeOnly: true });
  for (const bot of bots) await setActive(tx, bot, false);
  await setActive(tx, account, false);
  return [...bots.map((bot) => bot.id), account.id];
}

/** Queues end only once the deactivation is committed: a rollback must leave them working. */
function endEventQueues(accountIds: number[]) {
  for (const id of accountIds) dropQueuesOfUser(id);
}

async function checkNotLastOwner(tx: Tx, target: User, extra: Record<string, unknown> = {}) {
  if (isOwner(target.role) && (await countActiveOwners(tx)) <= 1) throw badRequest("Cannot deactivate the only organization owner", extra);
}

/** The notification e-mail (spec 4.16), queued in the same transaction for the mail sender. */
async function queueNotificationEmail(tx: Tx, target: User, comment: string) {
  if (!target.deliveryEmail) return;
  const realm = await getRealm(tx);
  const payload = { user_id: target.id, to: target.deliveryEmail, full_name: target.fullName, realm_name: realm.name, realm_url: realm.url, comment: comment === "" ? null : comment };
  await enqueueOutbox(tx, { kind: "account_deactivated_email", payload }, now());
}

/**
 * DELETE /users/{user_id}: administrators deactivate people (bots go through DELETE
 * /bots/{id}, as in the reference); only owners deactivate owners, and never the last one.
 * A comment that is not null asks for the notification e-mail, with its text if not empty.
 */
export async function deactivateUser(actor: User, userId: number, notificationComment: string | undefined) {
  requireAccountAdministrator(actor, "deactivate users");
  const comment = notificationComment?.trim();
  if (comment !== undefined && comment.length > MAX_COMMENT_LENGTH) throw badRequest(`Deactivation notification comment too long: at most ${MAX_COMMENT_LENGTH} characters.`);
  const deactivated = await write(async (tx) => {
    const target = await accessUser(tx, userId, { allowDeactivated: true, allowBots: false });
    if (!target.isActive) throw badRequest("User is already deactivated");
    if (isOwner(target.role) && !isOwner(actor.role)) throw ownerRequired();
    await checkNotLastOwner(tx, target);
    const accounts = await deactivateWithBots(tx, target);
    if (comment !== undefined) await queueNotificationEmail(tx, target, comment);
    return accounts;
  });
  endEventQueues(deactivated);
}

/** DELETE /users/me: anyone may leave, except the last owner and the last person. */
export async function deactivateOwnAccount(actor: User) {
  const deactivated = await write(async (tx) => {
    const self = (await findUserById(tx, actor.id)) ?? actor;
    const activeHumans = await countActiveHumans(tx);
    if (!self.isBot && activeHumans <= 1) throw badRequest("Cannot deactivate the only user", { entity: "user", is_last_owner: false });
    await checkNotLastOwner(tx, self, { entity: "organization owner", is_last_owner: true });
    return deactivateWithBots(tx, self);
  });
  endEventQueues(deactivated);
}

/** DELETE /bots/{bot_id}: the bot's owner or an administrator. */
export async function deactivateBot(actor: User, botId: number) {
  const deactivated = await write(async (tx) => {
    const bot = await accessBot(tx, actor, botId);
    if (!bot.isActive) throw badRequest("This bot is already deactivated.");
    return deactivateWithBots(tx, bot);
  });
  endEventQueues(deactivated);
}

/**
 * POST /users/{user_id}/reactivate: administrators bring back a person or a bot; only owners
 * bring back owners. A bot whose owner is deactivated stays down until its owner returns.
 */
export async function reactivateUser(actor: User, userId: number) {
  requireAdministrator(actor, "reactivate users");
  await write(async (tx) => {
    const target = await accessUser(tx, userId, { allowDeactivated: true });
    if (target.isSystemBot) throw badRequest("No such user");
    if (target.isActive) throw badRequest("User is already active");
    if (isOwner(target.role) && !isOwner(actor.role)) throw ownerRequired();
    const owner = target.isBot && target.botOwnerId !== null ? await findUserById(tx, target.botOwnerId) : undefined;
    if (owner && !owner.isActive) throw badRequest("This bot's owner is deactivated: reactivate the owner first.");
    await setActive(tx, target, true);
  });
}
