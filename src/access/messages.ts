import { and, asc, eq, gte } from "drizzle-orm";
import { activeSubscriberIds, type Channel, findChannelById } from "../db/channels";
import { messages, recipientUsers, type Message } from "../db/messages";
import { type MessageKey, subscriptionPeriods, wasReceived } from "../db/messageState";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { INVALID_MESSAGES, accessibleMessages, readableBy } from "./messageReading";
import { type ChannelViewer, channelViewer } from "./channels";

/**
 * Fetch-and-authorize for changing messages (edit, move, delete, react). Who may read a
 * message is decided in one place, access/messageReading.ts; this adds what changing needs.
 */

export interface AccessedMessage {
  message: Message;
  /** The channel of a channel message; undefined for a direct message. */
  channel: Channel | undefined;
  viewer: ChannelViewer;
}

/**
 * A message the user may read, or the reference's "Invalid message(s)" (unknown and hidden
 * look alike). With `modifying`, messages in archived channels count as hidden: they stay
 * readable, but nothing about them changes any more.
 */
export function accessMessage(db: Reader, user: User, messageId: number, options: { modifying?: boolean } = {}): AccessedMessage {
  const viewer = channelViewer(db, user);
  const [message] = accessibleMessages(db, viewer, [messageId]);
  const channel = message.channelId === null ? undefined : findChannelById(db, message.channelId)!;
  if (options.modifying && channel?.isArchived) throw badRequest(INVALID_MESSAGES);
  return { message, channel, viewer };
}

/** A topic's messages (from one ID on) that the viewer may read, oldest first. */
export function readableMessagesInTopic(db: Reader, viewer: ChannelViewer, channel: Channel, topicKey: string, fromId = 0): Message[] {
  const list = db
    .select()
    .from(messages)
    .where(and(eq(messages.channelId, channel.id), eq(messages.topicKey, topicKey), gte(messages.id, fromId)))
    .orderBy(asc(messages.id))
    .all();
  return list.filter(readableBy(db, viewer, list));
}

/**
 * The users who hear of changes to messages of one conversation (edits, reactions, deletion):
 * a direct message's participants; a channel's active subscribers, except that where history
 * is protected only those who received at least one of the messages. Others who may read them
 * see the change when they next fetch them, as in the reference.
 */
export function messageAudience(db: Reader, channel: Channel | undefined, changed: MessageKey[]): number[] {
  if (changed.length === 0) return [];
  if (!channel) {
    return db
      .select({ userId: recipientUsers.userId })
      .from(recipientUsers)
      .where(eq(recipientUsers.recipientId, changed[0].recipientId))
      .all()
      .map((row) => row.userId);
  }
  const subscribers = activeSubscriberIds(db, [channel.id]).get(channel.id) ?? [];
  if (channel.historyPublicToSubscribers) return subscribers;
  const periods = db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.channelId, channel.id)).all();
  return subscribers.filter((userId) => {
    const own = periods.filter((period) => period.userId === userId);
    return changed.some((message) => wasReceived(own, userId, message));
  });
}
