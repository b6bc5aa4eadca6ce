import { realmLinkifiers } from "../db/linkifiers";
import type { Message } from "../db/messages";
import type { Realm } from "../db/realm";
import type { SendTx } from "../db/types";
import { rolesOfUsers, type User } from "../db/users";
import type { DeliveryOptions } from "../events/types";
import { Role } from "../model/roles";
import { messageFields, messageViewerIn, type MessageParts } from "../shapes/messages";
import { canSeeDeliveryEmail, type Viewer } from "../shapes/users";
import type { Destination } from "../messages/recipients";

/**
 * The message event of a send. One event normally serves every recipient; only when the
 * message shows someone whose e-mail address is not public (the sender, or a participant of a
 * direct message) do recipients who may see it and those who may not get separate copies.
 */

export interface SentMessage {
  message: Message;
  sender: User;
  destination: Destination;
  /** Everyone whose queues get the event: the channel's subscribers or the conversation, and the sender. */
  recipientIds: readonly number[];
  /** Recipients' flags; those without an entry have none. */
  flagsByUser: Map<number, string[]>;
  localEcho?: { queueId: string; localId: string };
}

/** Someone reached only through all_public_streams: shown what any non-recipient may see. */
const OUTSIDER: Viewer = { id: 0, role: Role.GUEST };

const hasPublicEmail = (user: User) => user.isBot || user.settings.email_address_visibility === 1;

interface Copy {
  viewer: Viewer;
  userIds: readonly number[];
}

/** Which of the restricted addresses a viewer may see, as a key: viewers with equal keys share a copy. */
const shownEmailsKey = (viewer: Viewer, restricted: User[]) => restricted.map((user) => (canSeeDeliveryEmail(viewer, user) ? "1" : "0")).join("");

/** Recipients grouped by which of the restricted addresses they may see. */
async function copiesByEmailVisibility(tx: SendTx, sent: SentMessage, restricted: User[]): Promise<Map<string, Copy>> {
  const copies = new Map<string, Copy>();
  if (restricted.length === 0) {
    copies.set("", { viewer: sent.sender, userIds: sent.recipientIds });
    return copies;
  }
  const viewers = await rolesOfUsers(tx, sent.recipientIds);
  const grouped = new Map<string, { viewer: Viewer; userIds: number[] }>();
  for (const viewer of viewers) {
    const key = shownEmailsKey(viewer, restricted);
    const copy = grouped.get(key);
    if (copy) copy.userIds.push(viewer.id);
    else grouped.set(key, { viewer, userIds: [viewer.id] });
  }
  return grouped;
}

export async function emitMessage(tx: SendTx, realm: Realm, sent: SentMessage) {
  const { destination, sender } = sent;
  const isChannel = destination.kind === "channel";
  const parts: MessageParts = {
    message: sent.message,
    sender,
    recipient: isChannel ? { channelName: destination.channel.name } : { users: destination.participants },
  };
  // The users whose addresses the message shows, and of those the ones not shown to everyone.
  const shown = isChannel ? [sender] : [sender, ...destination.participants.filter((user) => user.id !== sender.id)];
  const restricted = shown.filter((user) => !hasPublicEmail(user));
  const copies = await copiesByEmailVisibility(tx, sent, restricted);
  const publicChannel = isChannel && !destination.channel.inviteOnly;
  const outsiderKey = shownEmailsKey(OUTSIDER, restricted);
  if (publicChannel && !copies.has(outsiderKey)) copies.set(outsiderKey, { viewer: OUTSIDER, userIds: [] });

  const options: DeliveryOptions = { flagsByUser: sent.flagsByUser, localEcho: sent.localEcho };
  const linkifiers = await realmLinkifiers(tx);
  for (const [key, copy] of copies) {
    const message = messageFields(parts, { ...messageViewerIn(realm, copy.viewer), linkifiers });
    const event = { type: "message" as const, message, flags: [], gravatar_computable: canSeeDeliveryEmail(copy.viewer, sender) };
    const reachesOutsiders = publicChannel && key === outsiderKey;
    const addressedElsewhere = reachesOutsiders && copies.size > 1 ? new Set(sent.recipientIds.filter((id) => !copy.userIds.includes(id))) : undefined;
    tx.emit(event, copy.userIds, { ...options, publicChannel: reachesOutsiders, addressedElsewhere });
  }
}
