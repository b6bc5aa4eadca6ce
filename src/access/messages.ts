import { activeSubscriberIds, type Channel, findChannelById } from "../db/channels";
import type { MessageRow } from "../db/messages";
import { type MessageKey, wasReceived } from "../db/messageState";
import { channelSubscriptionPeriods, conversationMemberIds } from "../db/messageVisibility";
import { type TopicMessage, topicMessageKeys } from "../db/topics";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { INVALID_MESSAGES, accessibleMessageRows, readableBy } from "./messageReading";
import { type ChannelViewer, channelViewer } from "./channels";

/**
 * Fetch-and-authorize for changing messages (edit, move, delete, react). Who may read a
 * message is decided in one place, access/messageReading.ts; this adds what changing needs.
 */

export interface AccessedMessage {
  /** Without its edit history: nothing that changes a message reads it. */
  message: MessageRow;
  /** The channel of a channel message; undefined for a direct message. */
  channel: Channel | undefined;
  viewer: ChannelViewer;
}

/**
 * A message the user may read, or the reference's "Invalid message(s)" (unknown and hidden
 * look alike). With `modifying`, messages in archived channels count as hidden: they stay
 * readable, but nothing about them changes any more.
 */
export async function accessMessage(db: Reader, user: User, messageId: number, options: { modifying?: boolean } = {}): Promise<AccessedMessage> {
  const viewer = await channelViewer(db, user);
  const [message] = await accessibleMessageRows(db, viewer, [messageId]);
  const channel = message.channelId === null ? undefined : (await findChannelById(db, message.channelId))!;
  if (options.modifying && channel?.isArchived) throw badRequest(INVALID_MESSAGES);
  return { message, channel, viewer };
}

export type { TopicMessage } from "../db/topics";

/**
 * A topic's messages (from one ID on) that the viewer may read, oldest first, at most `limit`
 * of them, leaving out the message `except` and those whose topic is spelled `exceptTopic`.
 * Keys only: a topic can hold tens of thousands of messages.
 */
export async function readableMessagesInTopic(
  db: Reader,
  viewer: ChannelViewer,
  channel: Channel,
  topicKey: string,
  options: { fromId?: number; except?: number; exceptTopic?: string; limit?: number } = {},
): Promise<TopicMessage[]> {
  const found: TopicMessage[] = [];
  // In steps: where history is protected, many may be unreadable and the next step goes on.
  const step = Math.min(options.limit ?? 1000, 1000);
  let edge = (options.fromId ?? 0) - 1;
  for (;;) {
    const rows = await topicMessageKeys(db, channel.id, topicKey, { afterId: edge, except: options.except, exceptTopic: options.exceptTopic, limit: step });
    found.push(...rows.filter(await readableBy(db, viewer, rows)));
    if (rows.length < step || (options.limit !== undefined && found.length >= options.limit)) return found.slice(0, options.limit);
    edge = rows[rows.length - 1].id;
  }
}

/**
 * The users who hear of changes to messages of one conversation (edits, reactions, deletion):
 * a direct message's participants; a channel's active subscribers, except that where history
 * is protected only those who received at least one of the messages. Others who may read them
 * see the change when they next fetch them, as in the reference.
 */
export async function messageAudience(db: Reader, channel: Channel | undefined, changed: MessageKey[]): Promise<number[]> {
  if (changed.length === 0) return [];
  if (!channel) return conversationMemberIds(db, changed[0].recipientId);
  const subscribers = (await activeSubscriberIds(db, [channel.id])).get(channel.id) ?? [];
  if (channel.historyPublicToSubscribers) return subscribers;
  const periods = await channelSubscriptionPeriods(db, channel.id);
  return subscribers.filter((userId) => {
    const own = periods.filter((period) => period.userId === userId);
    return changed.some((message) => wasReceived(own, userId, message));
  });
}
