import type { Channel } from "../db/channels";
import { isUserInGroup } from "../db/userGroups";
import { findDirectRecipient } from "../db/messages";
import type { Realm } from "../db/realm";
import { everyoneGroupId } from "../db/sendQueries";
import type { Reader } from "../db/types";
import { findUserById, type User } from "../db/users";
import { type ApiError, badRequest } from "../http/errors";
import { isGuest } from "../model/roles";
import { type ChannelViewer, channelViewer, hasContentAccess, hasMetadataAccess, lazyViewer, loadGroups, loadGroupsFor } from "./channels";

/** Who may send a message where: to a channel, and to a direct-message conversation. */

/**
 * The reference's rules for posting: not archived; in the channel's can_send_message_group;
 * and for a private channel (or any channel, for a guest) subscribed. A bot acts for its
 * owner too: it may post where its owner may. Channels the sender may not know about do not
 * exist for them.
 */
export async function checkMaySendToChannel(tx: Reader, sender: User, channel: Channel, subscribed: boolean, unknownChannel: () => ApiError) {
  // Only this channel's subscription matters here, and the caller has it already; the sender's
  // groups are looked up only if a rule needs them.
  const actors: ChannelViewer[] = [lazyViewer(tx, sender, new Set(subscribed ? [channel.id] : []))];
  const owner = sender.isBot && sender.botOwnerId !== null ? await findUserById(tx, sender.botOwnerId) : undefined;
  if (owner?.isActive) actors.push(await channelViewer(tx, owner));
  // The notification bot announces wherever the organization tells it to.
  if (!sender.isSystemBot) {
    await loadGroupsFor(actors[0], [channel]);
    if (!actors.some((actor) => hasMetadataAccess(actor, channel))) throw unknownChannel();
  }
  if (channel.isArchived) throw badRequest(`Not authorized to send to channel '${channel.name}': it is archived.`);
  if (sender.isSystemBot) return;
  const everyoneMaySend = channel.canSendMessageGroup === (await everyoneGroupId(tx));
  if (!everyoneMaySend) {
    await loadGroups(actors[0]);
    if (!actors.some((actor) => actor.groupIds.has(channel.canSendMessageGroup))) throw badRequest("You do not have permission to post in this channel.");
  }
  if (!mustBeSubscribed(actors[0], channel) || actors.some((actor) => actor.subscribedIds.has(channel.id))) return;
  throw badRequest(`Not authorized to send to channel '${channel.name}'`);
}

const mustBeSubscribed = (viewer: ChannelViewer, channel: Channel) => channel.inviteOnly || isGuest(viewer.user.role) || !hasContentAccess(viewer, channel);

/**
 * The organization's direct-message settings: every conversation must include someone in
 * direct_message_permission_group, and only members of direct_message_initiator_group may
 * start one. Conversations with only bots and oneself are always allowed.
 */
export async function checkDirectMessagePermission(tx: Reader, sender: User, realm: Realm, participants: User[]) {
  if (sender.isSystemBot || participants.every((user) => user.isBot || user.id === sender.id)) return;
  const { direct_message_permission_group: permission, direct_message_initiator_group: initiator } = realm.settings;
  if (!(await someoneInGroup(tx, participants, permission))) {
    throw badRequest("This conversation does not include any users who can authorize it.");
  }
  const started = (await findDirectRecipient(tx, participants.map((user) => user.id))) !== undefined;
  if (!started && !(await isUserInGroup(tx, sender.id, initiator))) throw badRequest("You do not have permission to initiate direct message conversations.");
}

async function someoneInGroup(tx: Reader, users: User[], groupId: number): Promise<boolean> {
  for (const user of users) if (await isUserInGroup(tx, user.id, groupId)) return true;
  return false;
}
