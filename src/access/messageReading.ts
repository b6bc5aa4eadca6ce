import { type ChannelViewer, hasContentAccess, lazyViewer, loadGroupsFor } from "./channels";
import { activeChannelIdsOfUser, type Channel, channelsByIds } from "../db/channels";
import { Flag, type Message, type MessageRow, messageRowsByIds, messagesByIds } from "../db/messages";
import { bitsOf, type MessageKey, periodsOf, wasReceived } from "../db/messageState";
import { conversationsOfUserAmong, messageKeysByIds } from "../db/messageVisibility";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";

/**
 * Which messages a user may read (the reference's has_message_access, with its history rules):
 * - direct messages of conversations they take part in;
 * - channel messages they received (sent, or subscribed when sent) or starred;
 * - all messages of channels whose history they may read: web-public channels, and channels
 *   they have content access to whose history is public to subscribers.
 * So in a private channel with protected history a subscriber sees only what was sent while
 * they were subscribed, and someone who left still sees what they received.
 */

export const INVALID_MESSAGES = "Invalid message(s)";

/**
 * The reader as channel permission checks see them. Their groups are looked up only if a check
 * needs them (a private channel they are not subscribed to), which reading history rarely does.
 */
export async function lazyChannelViewer(db: Reader, user: User): Promise<ChannelViewer> {
  return lazyViewer(db, user, await activeChannelIdsOfUser(db, user.id));
}

export function canReadHistory(viewer: ChannelViewer, channel: Channel): boolean {
  return channel.isWebPublic || (channel.historyPublicToSubscribers && hasContentAccess(viewer, channel));
}

/** Loads a lazy viewer's groups if canReadHistory needs them for one of these channels (see lazyViewer). */
export async function loadGroupsForHistory(viewer: ChannelViewer, channels: Channel[]) {
  await loadGroupsFor(viewer, channels.filter((channel) => channel.historyPublicToSubscribers));
}

/** The messages with these IDs (unique) that exist, as `fetch` reads them; all readable by the user, or "Invalid message(s)". */
async function accessible<T extends MessageKey>(db: Reader, viewer: ChannelViewer, ids: number[], fetch: (ids: number[]) => Promise<T[]>): Promise<T[]> {
  const unique = [...new Set(ids)];
  const found: T[] = [];
  for (let i = 0; i < unique.length; i += 500) found.push(...(await fetch(unique.slice(i, i + 500))));
  if (found.length !== unique.length || !found.every(await readableBy(db, viewer, found))) throw badRequest(INVALID_MESSAGES);
  return found.sort((a, b) => a.id - b.id);
}

/**
 * The messages with these IDs, if the user may read every one; otherwise the reference's
 * "Invalid message(s)", which does not tell missing and hidden messages apart.
 */
export async function accessibleMessages(db: Reader, viewer: ChannelViewer, ids: number[]): Promise<Message[]> {
  return accessible(db, viewer, ids, async (chunk) => messagesByIds(db, chunk));
}

/** accessibleMessages without the edit history, which can run to megabytes: for changing a message. */
export async function accessibleMessageRows(db: Reader, viewer: ChannelViewer, ids: number[]): Promise<MessageRow[]> {
  return accessible(db, viewer, ids, async (chunk) => messageRowsByIds(db, chunk));
}

/** accessibleMessages for what per-user state needs, without the messages' text: for long lists. */
export async function accessibleMessageKeys(db: Reader, viewer: ChannelViewer, ids: number[]): Promise<MessageKey[]> {
  return accessible(db, viewer, ids, async (chunk) => messageKeysByIds(db, chunk));
}

/** Of the messages with these IDs, the ones that exist and the user may read (keys only, ascending). */
export async function readableMessageKeys(db: Reader, viewer: ChannelViewer, ids: number[]): Promise<MessageKey[]> {
  const found = await messageKeysByIds(db, [...new Set(ids)]);
  return found.filter(await readableBy(db, viewer, found));
}

/** A predicate for the messages of one batch, with what it needs fetched once. */
export async function readableBy(db: Reader, viewer: ChannelViewer, batch: MessageKey[]): Promise<(message: MessageKey) => boolean> {
  const userId = viewer.user.id;
  const channelIds = [...new Set(batch.flatMap((m) => (m.channelId === null ? [] : [m.channelId])))];
  const channels = await channelsByIds(db, channelIds);
  await loadGroupsForHistory(viewer, channels);
  const channelsById = new Map(channels.map((channel) => [channel.id, channel]));
  // Only the conversations of the batch: someone may be in thousands.
  const conversationIds = [...new Set(batch.flatMap((m) => (m.channelId === null ? [m.recipientId] : [])))];
  const conversations = new Set(await conversationsOfUserAmong(db, userId, conversationIds));
  const periods = await periodsOf(db, userId, channelIds);
  const bits = await bitsOf(db, userId, batch.map((m) => m.id));
  return (message) => {
    if (message.channelId === null) return conversations.has(message.recipientId);
    const channel = channelsById.get(message.channelId);
    if (channel && canReadHistory(viewer, channel)) return true;
    return wasReceived(periods, userId, message) || ((bits.get(message.id) ?? 0) & Flag.STARRED) !== 0;
  };
}
