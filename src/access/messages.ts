import { and, asc, eq, gte } from "drizzle-orm";
import { activeSubscriberIds, type Channel, findChannelById } from "../db/channels";
import { messages, recipientUsers, type Message } from "../db/messages";
import { inPeriods, periodsOf, subscriptionPeriods } from "../db/messageState";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { type ChannelViewer, channelViewer, hasContentAccess } from "./channels";

/**
 * Who may see a message (the reference's has_message_access). A direct message: its
 * participants. A channel message: those with content access to the channel; but where the
 * channel's history is not public to subscribers, only current subscribers who received it
 * (sent it, or were subscribed when it was sent: db/messageState.ts subscription periods).
 */

export const INVALID_MESSAGE = "Invalid message(s)";

type MessageRef = Pick<Message, "id" | "senderId">;

export interface AccessedMessage {
  message: Message;
  /** The channel of a channel message; undefined for a direct message. */
  channel: Channel | undefined;
  viewer: ChannelViewer;
}

/** Which of a channel's messages the viewer may see, with what that takes fetched once. */
export function channelMessageVisibility(db: Reader, viewer: ChannelViewer, channel: Channel): (message: MessageRef) => boolean {
  if (channel.historyPublicToSubscribers) {
    const visible = hasContentAccess(viewer, channel);
    return () => visible;
  }
  if (!viewer.subscribedIds.has(channel.id)) return () => false;
  const periods = periodsOf(db, viewer.user.id, [channel.id]);
  return (message) => message.senderId === viewer.user.id || inPeriods(periods, channel.id, message.id);
}

function participantIds(db: Reader, recipientId: number): number[] {
  return db
    .select({ userId: recipientUsers.userId })
    .from(recipientUsers)
    .where(eq(recipientUsers.recipientId, recipientId))
    .all()
    .map((row) => row.userId);
}

/**
 * Fetches a message the user may see. Unknown and hidden messages get the same answer. With
 * `modifying`, messages in archived channels count as hidden too: they may be read, never changed.
 */
export function accessMessage(db: Reader, user: User, messageId: number, options: { modifying?: boolean } = {}): AccessedMessage {
  const message = db.select().from(messages).where(eq(messages.id, messageId)).get();
  if (!message) throw badRequest(INVALID_MESSAGE);
  const viewer = channelViewer(db, user);
  if (message.channelId === null) {
    if (!participantIds(db, message.recipientId).includes(user.id)) throw badRequest(INVALID_MESSAGE);
    return { message, channel: undefined, viewer };
  }
  const channel = findChannelById(db, message.channelId)!;
  if (!channelMessageVisibility(db, viewer, channel)(message)) throw badRequest(INVALID_MESSAGE);
  if (options.modifying && channel.isArchived) throw badRequest(INVALID_MESSAGE);
  return { message, channel, viewer };
}

/**
 * The users who hear of changes to messages of one conversation (edits, reactions, deletion):
 * a direct message's participants; a channel's active subscribers who can see at least one of
 * the messages. Others who could look them up see the change when they next fetch them, as in
 * the reference.
 */
export function messageAudience(db: Reader, channel: Channel | undefined, changed: Array<MessageRef & Pick<Message, "recipientId">>): number[] {
  if (changed.length === 0) return [];
  if (!channel) return participantIds(db, changed[0].recipientId);
  const subscribers = activeSubscriberIds(db, [channel.id]).get(channel.id) ?? [];
  if (channel.historyPublicToSubscribers) return subscribers;
  const periods = db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.channelId, channel.id)).all();
  return subscribers.filter((userId) => {
    const own = periods.filter((period) => period.userId === userId);
    return changed.some((message) => message.senderId === userId || inPeriods(own, channel.id, message.id));
  });
}

/** A topic's messages (from one ID on) that the viewer may see, oldest first. */
export function visibleMessagesInTopic(db: Reader, viewer: ChannelViewer, channel: Channel, topicKey: string, fromId = 0): Message[] {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.channelId, channel.id), eq(messages.topicKey, topicKey), gte(messages.id, fromId)))
    .orderBy(asc(messages.id))
    .all()
    .filter(channelMessageVisibility(db, viewer, channel));
}
