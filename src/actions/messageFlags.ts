import { and, eq, sql } from "drizzle-orm";
import { accessChannel } from "../access/channels";
import { Flag, messageFlags } from "../db/messages";
import {
  advanceMarks,
  canBeUnread,
  channelRecipientIds,
  clearBits,
  isRead,
  listUnread,
  markEverythingRead,
  maxMessageId,
  type MessageKey,
  raiseMark,
  recordUnsubscribed,
  stateOf,
  unreadInChannels,
  type UserChannel,
  writeBits,
} from "../db/messageState";
import { getRealm } from "../db/realm";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { requestedTopicKey } from "../messages/narrowQuery";
import { unreadDetails } from "../events/state/unread";
import { accessibleMessages, lazyChannelViewer } from "../access/messageReading";

/**
 * Changing personal message flags (reference: update-message-flags, mark-*-as-read), each
 * change one transaction that ends with an update_message_flags event to the user's own
 * queues. Read state is kept in the sparse form of db/messageState.ts.
 */

export type FlagOperation = "add" | "remove";

/** Flags a user sets by hand; the rest follow from the message (mentions, alert words, history). */
const EDITABLE: Record<string, number> = { read: Flag.READ, starred: Flag.STARRED, collapsed: Flag.COLLAPSED };
const DERIVED = new Set(["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "wildcard_mentioned", "group_mentioned", "has_alert_word", "historical"]);

export function checkFlagChange(operation: string, flag: string): { operation: FlagOperation; flag: string } {
  if (DERIVED.has(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  if (!Object.hasOwn(EDITABLE, flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (operation !== "add" && operation !== "remove") throw badRequest(`Invalid message flag operation: '${operation}'`);
  return { operation, flag };
}

export interface FlagChangeResult {
  /** The messages whose flag changed. */
  changed: number[];
  /** For read/remove: channels whose messages stay read, as the user is not subscribed to them. */
  ignoredChannels: number[];
}

/**
 * Adds or removes a flag on messages the user may read, inside `tx`, and tells the user's
 * queues what changed. Shared by POST /messages/flags and POST /messages/flags/narrow.
 */
export function changeFlags(tx: Tx, user: User, list: MessageKey[], operation: FlagOperation, flag: string): FlagChangeResult {
  const state = stateOf(tx, user.id, list);
  const bitsOf = (message: MessageKey) => state.bits.get(message.id) ?? 0;
  const markOf = (message: MessageKey) => state.marks.get(message.recipientId) ?? 0;
  let changed: MessageKey[];
  let ignoredChannels: number[] = [];
  if (flag === "read" && operation === "add") {
    changed = list.filter((message) => !isRead(state, message));
    for (const message of changed) writeBits(tx, user.id, message, (bitsOf(message) & ~Flag.UNREAD) | (message.id > markOf(message) ? Flag.READ : 0));
    advanceMarks(tx, user.id, changed.map((message) => message.recipientId));
  } else if (flag === "read") {
    ignoredChannels = [...new Set(list.filter((message) => !canBeUnread(state, message)).map((message) => message.channelId!))];
    changed = list.filter((message) => canBeUnread(state, message) && isRead(state, message));
    for (const message of changed) writeBits(tx, user.id, message, (bitsOf(message) & ~Flag.READ) | (message.id <= markOf(message) ? Flag.UNREAD : 0));
  } else {
    const bit = EDITABLE[flag];
    const on = operation === "add";
    changed = list.filter((message) => ((bitsOf(message) & bit) !== 0) !== on);
    for (const message of changed) writeBits(tx, user.id, message, on ? bitsOf(message) | bit : bitsOf(message) & ~bit);
  }
  const ids = changed.map((message) => message.id);
  if (ids.length > 0) emitFlagChange(tx, user.id, operation, flag, ids);
  return { changed: ids, ignoredChannels };
}

function emitFlagChange(tx: Tx, userId: number, operation: FlagOperation, flag: string, ids: number[]) {
  if (operation === "add") {
    tx.emit({ type: "update_message_flags", op: "add", operation: "add", flag, messages: ids, all: false }, [userId]);
    return;
  }
  const event = { type: "update_message_flags" as const, op: "remove" as const, operation: "remove" as const, flag, messages: ids, all: false as const };
  tx.emit(flag === "read" ? { ...event, message_details: unreadDetails(tx, userId, ids) } : event, [userId]);
}

/** POST /messages/flags. Every message must be one the user may read. */
export function updateMessageFlags(user: User, messageIds: number[], operation: string, flag: string): FlagChangeResult {
  const change = checkFlagChange(operation, flag);
  return write((tx) => changeFlags(tx, user, accessibleMessages(tx, lazyChannelViewer(tx, user), messageIds), change.operation, change.flag));
}

/** Marks every unread message read; the event lists them (the reference's batched form). */
export function markAllAsRead(user: User) {
  write((tx) => {
    const unread = listUnread(tx, user.id).map((row) => row.id);
    markEverythingRead(tx, user.id, maxMessageId(tx));
    if (unread.length > 0) emitFlagChange(tx, user.id, "add", "read", unread.reverse());
  });
}

/** POST /mark_stream_as_read: every message of a channel the user may read. */
export function markChannelAsRead(user: User, channelId: number) {
  write((tx) => {
    const { channel } = accessChannel(tx, user, channelId, "content");
    const recipientId = channelRecipientIds(tx, [channel.id]).get(channel.id);
    if (recipientId === undefined) return;
    const unread = listUnread(tx, user.id, { where: sql`m.recipient_id = ${recipientId}` }).map((row) => row.id);
    if (unread.length === 0) return;
    raiseMark(tx, user.id, recipientId, maxMessageId(tx));
    clearBits(tx, user.id, Flag.READ | Flag.UNREAD, eq(messageFlags.recipientId, recipientId));
    emitFlagChange(tx, user.id, "add", "read", unread.reverse());
  });
}

/** POST /mark_topic_as_read. A topic without messages is an error, as in the reference. */
export function markTopicAsRead(user: User, channelId: number, topicName: string) {
  write((tx) => {
    const { channel } = accessChannel(tx, user, channelId, "content");
    const topicKey = requestedTopicKey(topicName, getRealm(tx).settings.empty_topic_display_name);
    const exists = tx.all(sql`SELECT 1 FROM messages WHERE channel_id = ${channel.id} AND topic_key = ${topicKey} LIMIT 1`).length > 0;
    if (!exists) throw badRequest(`No such topic '${topicName}'`);
    const unread = listUnread(tx, user.id, { where: and(sql`m.channel_id = ${channel.id}`, sql`m.topic_key = ${topicKey}`) });
    changeFlags(tx, user, unread.reverse(), "add", "read");
  });
}

/**
 * Part of leaving channels (actions/subscriptions.ts): closes the subscription periods and
 * marks the channels read, telling each user which of their messages that changed.
 */
export function markLeftChannelsRead(tx: Tx, pairs: UserChannel[]) {
  const unreadByUser = unreadInChannels(tx, pairs);
  recordUnsubscribed(tx, pairs);
  for (const [userId, unread] of unreadByUser) emitFlagChange(tx, userId, "add", "read", unread);
}
