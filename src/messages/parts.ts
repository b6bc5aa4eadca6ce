import { inArray } from "drizzle-orm";
import { channels } from "../db/channels";
import { type Message, recipientUsers } from "../db/messages";
import { reactionsForMessages } from "../db/reactions";
import type { Reader } from "../db/types";
import { type User, users } from "../db/users";
import type { MessageParts } from "../shapes/messages";

/**
 * What shapes/messages.ts builds message objects from, for a page of messages at once: a
 * fixed handful of queries however many messages, senders, channels and conversations.
 */
export function loadMessageParts(db: Reader, list: Message[]): MessageParts[] {
  if (list.length === 0) return [];
  const channelIds = [...new Set(list.flatMap((m) => (m.channelId === null ? [] : [m.channelId])))];
  const channelNames = new Map(
    (channelIds.length ? db.select({ id: channels.id, name: channels.name }).from(channels).where(inArray(channels.id, channelIds)).all() : []).map((row) => [row.id, row.name]),
  );
  const conversationIds = [...new Set(list.filter((m) => m.channelId === null).map((m) => m.recipientId))];
  const members = conversationIds.length
    ? db.select().from(recipientUsers).where(inArray(recipientUsers.recipientId, conversationIds)).all()
    : [];
  const userIds = [...new Set([...list.map((m) => m.senderId), ...members.map((row) => row.userId)])];
  const usersById = new Map(db.select().from(users).where(inArray(users.id, userIds)).all().map((user) => [user.id, user]));
  const participants = new Map<number, User[]>();
  for (const row of members) (participants.get(row.recipientId) ?? participants.set(row.recipientId, []).get(row.recipientId)!).push(usersById.get(row.userId)!);
  const reactions = reactionsForMessages(db, list.map((m) => m.id));
  return list.map((message) => ({
    message,
    sender: usersById.get(message.senderId)!,
    recipient: message.channelId === null ? { users: participants.get(message.recipientId) ?? [] } : { channelName: channelNames.get(message.channelId) ?? "" },
    reactions: reactions.get(message.id) ?? [],
  }));
}
