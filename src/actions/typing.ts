import { accessChannel } from "../access/channels";
import { accessMessage, messageAudience } from "../access/messages";
import { canAccessUser } from "../access/userAccess";
import { activeSubscriberIds } from "../db/channels";
import { getRealm, realmHost, type Realm } from "../db/realm";
import { write } from "../db/transaction";
import type { Reader } from "../db/types";
import { findUsersByIds, type User } from "../db/users";
import type { TypingUser } from "../events/kinds/typing";
import { badRequest } from "../http/errors";
import { normalizeTopic } from "../messages/content";
import { Role } from "../model/roles";
import { canSeeDeliveryEmail, standInEmail } from "../shapes/users";

/**
 * Typing notifications (spec 4.4). Nothing is stored: a request only emits `typing` events to
 * whoever would receive the message being composed, if they want them. Channel typing reaches
 * only clients with stream_typing_notifications (events/filters.ts).
 */

export type TypingOp = "start" | "stop";

export interface TypingInput {
  type?: "direct" | "stream" | "channel";
  op: TypingOp;
  to?: number[];
  stream_id?: number;
  topic?: string;
}

/** As the reference: channels this large get no typing notifications, which would flood every client. */
export const MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

// The events go to many clients alike, so they show the address anyone may see.
const ANYONE = { id: 0, role: Role.GUEST };
const typingUser = (user: User, realm: Realm): TypingUser => ({ user_id: user.id, email: canSeeDeliveryEmail(ANYONE, user) ? user.email : standInEmail(user.id, realmHost(realm)) });

/** Those of `userIds` who are active and want typing notifications. */
async function wantingNotifications(db: Reader, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  return (await findUsersByIds(db, userIds))
    .filter((user) => user.isActive && user.settings.receives_typing_notifications !== false)
    .map((user) => user.id);
}

/** A channel audience's members who want notifications; nobody when it is too large. */
async function notifiedInChannel(db: Reader, audience: number[]): Promise<number[]> {
  return audience.length > MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS ? [] : await wantingNotifications(db, audience);
}

/** POST /typing. A sender who turned off sending typing notifications gets success and sends nothing. */
export async function setTypingStatus(sender: User, input: TypingInput) {
  if (input.type === "stream" || input.type === "channel") await channelTyping(sender, input);
  else await directTyping(sender, input);
}

async function channelTyping(sender: User, input: TypingInput) {
  if (input.stream_id === undefined) throw badRequest("Missing channel ID");
  await write(async (tx) => {
    const realm = await getRealm(tx);
    const topic = normalizeTopic(input.topic, realm.settings);
    const { channel } = await accessChannel(tx, sender, input.stream_id!, "content");
    if (channel.isArchived) throw badRequest("Invalid channel ID");
    if (sender.settings.send_stream_typing_notifications === false) return;
    const event = { type: "typing" as const, op: input.op, message_type: "stream" as const, sender: typingUser(sender, realm), stream_id: channel.id, topic };
    tx.emit(event, await notifiedInChannel(tx, (await activeSubscriberIds(tx, [channel.id])).get(channel.id) ?? []));
  });
}

async function directTyping(sender: User, input: TypingInput) {
  if (input.to === undefined) throw badRequest("Missing 'to' argument");
  if (input.to.length === 0) throw badRequest("Empty 'to' list");
  const ids = [...new Set([...input.to, sender.id])];
  await write(async (tx) => {
    const realm = await getRealm(tx);
    const found = new Map((await findUsersByIds(tx, ids)).map((user) => [user.id, user]));
    // One bad ID refuses the whole request: a partial list would name another conversation.
    const recipients: User[] = [];
    for (const id of ids) {
      const user = found.get(id);
      if (!user || !(await canAccessUser(tx, sender, user, realm))) throw badRequest(`Invalid user ID ${id}`);
      recipients.push(user);
    }
    if (sender.settings.send_private_typing_notifications === false) return;
    const event = { type: "typing" as const, op: input.op, message_type: "direct" as const, sender: typingUser(sender, realm), recipients: recipients.map((user) => typingUser(user, realm)) };
    tx.emit(event, await wantingNotifications(tx, ids));
  });
}

/** POST /messages/{message_id}/typing: someone is editing a message they may change; its audience is told. */
export async function setEditTypingStatus(editor: User, messageId: number, op: TypingOp) {
  await write(async (tx) => {
    const { message, channel } = await accessMessage(tx, editor, messageId, { modifying: true });
    const enabled = channel ? editor.settings.send_stream_typing_notifications : editor.settings.send_private_typing_notifications;
    if (enabled === false) return;
    if (channel) {
      const recipient = { type: "channel" as const, channel_id: channel.id, topic: message.topic };
      tx.emit({ type: "typing_edit_message", op, sender_id: editor.id, message_id: message.id, recipient }, await notifiedInChannel(tx, await messageAudience(tx, channel, [message])));
    } else {
      const participants = (await messageAudience(tx, undefined, [message])).sort((a, b) => a - b);
      const recipient = { type: "direct" as const, user_ids: participants };
      tx.emit({ type: "typing_edit_message", op, sender_id: editor.id, message_id: message.id, recipient }, await wantingNotifications(tx, participants));
    }
  });
}
