import type { Message } from "../db/messages";
import { messagePageRows } from "../db/messageHistory";
import type { Reader } from "../db/types";
import type { MessageParts } from "../shapes/messages";
import { reactionsForMessages } from "../shapes/reactions";

/** What shapes/messages.ts builds message objects from, for a page of messages at once. */
export async function loadMessageParts(db: Reader, list: Message[]): Promise<MessageParts[]> {
  if (list.length === 0) return [];
  const { channelNames, participants, usersById } = await messagePageRows(db, list);
  const reactions = await reactionsForMessages(db, list.map((m) => m.id));
  return list.map((message) => ({
    message,
    sender: usersById.get(message.senderId)!,
    recipient: message.channelId === null ? { users: participants.get(message.recipientId) ?? [] } : { channelName: channelNames.get(message.channelId) ?? "" },
    reactions: reactions.get(message.id) ?? [],
  }));
}
