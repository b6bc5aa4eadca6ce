import { accessChannel } from "../access/channels";
import { clearReadBitsBetween, listUnreadBetween, type UnreadAmong } from "../db/flagRows";
import { Flag, topicHasMessages } from "../db/messages";
import {
  advanceMarks,
  canBeUnread,
  channelRecipientIds,
  isRead,
  lowestPossiblyUnreadId,
  maxMessageId,
  type MessageKey,
  raiseMark,
  recordUnsubscribed,
  stateOf,
  storeBits,
  unreadInChannels,
  type UnreadRow,
  type UserChannel,
} from "../db/messageState";
import { getRealm } from "../db/realm";
import { readInSlices, Stride, writeInSlices, yieldToOthers } from "../db/slices";
import { read } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { withdrawWebPushes } from "./webPushWithdrawal";
import { requestedTopicKey } from "../messages/narrowQuery";
import { hasEventQueue } from "../events/registry";
import { unreadDetails } from "../events/state/unread";
import { accessibleMessageKeys, lazyChannelViewer, readableMessageKeys } from "../access/messageReading";

/**
 * Changing personal message flags (reference: update-message-flags, mark-*-as-read). Read
 * state is kept in the sparse form of db/messageState.ts. A change can concern any number of
 * messages, so it is made in slices (db/slices.ts), each telling the user's queues what it
 * changed in an update_message_flags event of its own.
 */

export type FlagOperation = "add" | "remove";

/** Flags a user sets by hand; the rest follow from the message (mentions, alert words, history). */
const EDITABLE: Record<string, number> = { read: Flag.READ, starred: Flag.STARRED, collapsed: Flag.COLLAPSED };
const DERIVED = new Set(["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "wildcard_mentioned", "group_mentioned", "has_alert_word", "historical"]);

/** Messages per step of a flag change: one access check and a few statements, a few milliseconds. */
const FLAG_STEP = 200;
/** Unread messages marked read per step of a walk through history. */
const READ_STEP = 500;

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

/** Adds or removes a flag on messages the user may read, inside `tx`; the caller tells the user's queues. */
async function applyFlagChange(tx: Tx, user: User, list: MessageKey[], operation: FlagOperation, flag: string): Promise<FlagChangeResult> {
  const state = await stateOf(tx, user.id, list);
  const bitsOf = (message: MessageKey) => state.bits.get(message.id) ?? 0;
  const markOf = (message: MessageKey) => state.marks.get(message.recipientId) ?? 0;
  let changed: MessageKey[];
  let ignoredChannels: number[] = [];
  if (flag === "read" && operation === "add") {
    changed = list.filter((message) => !isRead(state, message));
    await storeBits(tx, user.id, changed.map((message) => ({ message, bits: (bitsOf(message) & ~Flag.UNREAD) | (message.id > markOf(message) ? Flag.READ : 0) })));
    await advanceMarks(tx, user.id, changed.map((message) => message.recipientId));
  } else if (flag === "read") {
    ignoredChannels = [...new Set(list.filter((message) => !canBeUnread(state, message)).map((message) => message.channelId!))];
    changed = list.filter((message) => canBeUnread(state, message) && isRead(state, message));
    await storeBits(tx, user.id, changed.map((message) => ({ message, bits: (bitsOf(message) & ~Flag.READ) | (message.id <= markOf(message) ? Flag.UNREAD : 0) })));
  } else {
    const bit = EDITABLE[flag];
    const on = operation === "add";
    changed = list.filter((message) => ((bitsOf(message) & bit) !== 0) !== on);
    await storeBits(tx, user.id, changed.map((message) => ({ message, bits: on ? bitsOf(message) | bit : bitsOf(message) & ~bit })));
  }
  return { changed: changed.map((message) => message.id), ignoredChannels };
}

async function emitFlagChange(tx: Tx, userId: number, operation: FlagOperation, flag: string, ids: number[]) {
  if (ids.length === 0) return;
  if (operation === "add") {
    tx.emit({ type: "update_message_flags", op: "add", operation: "add", flag, messages: ids, all: false }, [userId]);
    if (flag === "read") await withdrawWebPushes(tx, userId, ids);
    return;
  }
  const event = { type: "update_message_flags" as const, op: "remove" as const, operation: "remove" as const, flag, messages: ids, all: false as const };
  tx.emit(flag === "read" ? { ...event, message_details: await unreadDetails(tx, userId, ids) } : event, [userId]);
}

/**
 * Changes a flag on those of the messages (IDs, ascending) the user may read, in slices; one
 * deleted or hidden since the caller looked is left alone. Shared by POST /messages/flags and
 * POST /messages/flags/narrow.
 */
export async function changeFlags(user: User, ids: number[], operation: FlagOperation, flag: string): Promise<FlagChangeResult> {
  const changed: number[] = [];
  const ignored = new Set<number>();
  let next = 0;
  await writeInSlices(async (tx, slice) => {
    const viewer = await lazyChannelViewer(tx, user);
    const changedNow: number[] = [];
    while (next < ids.length && !slice.over) {
      const step = await applyFlagChange(tx, user, await readableMessageKeys(tx, viewer, ids.slice(next, next + FLAG_STEP)), operation, flag);
      changedNow.push(...step.changed);
      for (const channelId of step.ignoredChannels) ignored.add(channelId);
      next += FLAG_STEP;
    }
    await emitFlagChange(tx, user.id, operation, flag, changedNow);
    changed.push(...changedNow);
    return next >= ids.length ? true : undefined;
  });
  return { changed, ignoredChannels: [...ignored] };
}

/**
 * POST /messages/flags. Every message must be one the user may read: all are checked (in
 * slices of reads) before the first changes, so a refusal changes nothing.
 */
export async function updateMessageFlags(user: User, messageIds: number[], operation: string, flag: string): Promise<FlagChangeResult> {
  const change = checkFlagChange(operation, flag);
  const ids = [...new Set(messageIds)].sort((a, b) => a - b);
  // Reading and checking a long list took a while already: let others in before the work.
  if (ids.length > FLAG_STEP) await yieldToOthers();
  let checked = 0;
  await readInSlices(async (db, slice) => {
    const viewer = await lazyChannelViewer(db, user);
    while (checked < ids.length && !slice.over) {
      await accessibleMessageKeys(db, viewer, ids.slice(checked, checked + FLAG_STEP));
      checked += FLAG_STEP;
    }
    return checked >= ids.length ? true : undefined;
  });
  return await changeFlags(user, ids, change.operation, change.flag);
}

let markAllBudgetMs = 5000;

/** Set once at startup from the configuration (PARLEY_MARK_ALL_READ_BUDGET_MS; tests shrink it). */
export function configureMarkAllAsRead(budgetMs: number) {
  markAllBudgetMs = budgetMs;
}

/**
 * Marks a conversation's unread messages from `from` up to and including `upTo` read, all
 * below `from` being read already: its read mark moves to `upTo` and the exception bits
 * between go, so no row is written per message. (READ bits left below `from` say what the
 * mark now says too.)
 */
async function markReadUpTo(tx: Tx, userId: number, recipientId: number, from: number, upTo: number) {
  await raiseMark(tx, userId, recipientId, upTo);
  await clearReadBitsBetween(tx, userId, recipientId, from, upTo);
}

/**
 * Marks the user's unread messages `among` those of a conversation, topic or sender (all when
 * absent) read, oldest first, walking history in strides of IDs, in slices each with its own
 * event. Every unread message below the stride is read by then, so each conversation's read
 * mark simply moves up to its newest message marked (or, when `among` picks only some of a
 * conversation's messages, they get exception bits). Returns false when the budget ran out first.
 */
async function markReadWalking(user: User, among: UnreadAmong | undefined, options: { wholeConversations: boolean; budgetMs?: number }): Promise<boolean> {
  const deadline = options.budgetMs === undefined ? Infinity : performance.now() + options.budgetMs;
  const stride = new Stride();
  let from = await read((db) => lowestPossiblyUnreadId(db, user.id));
  return await writeInSlices(async (tx, slice) => {
    const end = (await maxMessageId(tx)) + 1;
    const marked: number[] = [];
    while (from < end && !slice.over) {
      const started = performance.now();
      const unread = await listUnreadBetween(tx, user.id, { from, below: Math.min(from + stride.ids, end) }, among, READ_STEP);
      // A stride thick with unread messages is done a step's worth at a time.
      const to = unread.length === READ_STEP ? unread[unread.length - 1].id + 1 : Math.min(from + stride.ids, end);
      if (options.wholeConversations) {
        for (const [recipientId, upTo] of newestByConversation(unread)) await markReadUpTo(tx, user.id, recipientId, from, upTo);
        marked.push(...unread.map((row) => row.id));
      } else {
        marked.push(...(await applyFlagChange(tx, user, unread, "add", "read")).changed);
      }
      stride.after(started);
      from = to;
    }
    await emitFlagChange(tx, user.id, "add", "read", marked);
    if (from >= end) return true;
    return performance.now() >= deadline ? false : undefined;
  });
}

const newestByConversation = (rows: UnreadRow[]) => new Map(rows.map((row) => [row.recipientId, row.id]));

/** POST /mark_all_as_read: answers complete false when its time budget ran out first, as the reference does. */
export async function markAllAsRead(user: User): Promise<{ complete: boolean }> {
  return { complete: await markReadWalking(user, undefined, { wholeConversations: true, budgetMs: markAllBudgetMs }) };
}

/** POST /mark_stream_as_read: every message of a channel the user may read. */
export async function markChannelAsRead(user: User, channelId: number) {
  const recipientId = await read(async (db) => {
    const { channel } = await accessChannel(db, user, channelId, "content");
    return (await channelRecipientIds(db, [channel.id])).get(channel.id);
  });
  if (recipientId !== undefined) await markReadWalking(user, { recipientId }, { wholeConversations: true });
}

/** POST /mark_topic_as_read. A topic without messages is an error, as in the reference. */
export async function markTopicAsRead(user: User, channelId: number, topicName: string) {
  const among = await read(async (db) => {
    const { channel } = await accessChannel(db, user, channelId, "content");
    const topicKey = requestedTopicKey(topicName, (await getRealm(db)).settings.empty_topic_display_name);
    if (!(await topicHasMessages(db, channel.id, topicKey))) throw badRequest(`No such topic '${topicName}'`);
    return { channelId: channel.id, topicKey };
  });
  await markReadWalking(user, among, { wholeConversations: false });
}

/** Muting someone marks what they sent read (POST /users/me/muted_users/{id}). */
export async function markSenderRead(user: User, senderId: number) {
  await markReadWalking(user, { senderId }, { wholeConversations: false });
}

/**
 * Part of leaving channels (actions/subscriptionChanges.ts): closes the subscription periods and
 * marks the channels read, telling each user which of their messages that changed. Listing
 * someone's unread messages can take long (thousands in each channel), so it is done only for
 * people with an event queue to tell; for the others the marks move without a list.
 */
export async function markLeftChannelsRead(tx: Tx, pairs: UserChannel[]) {
  const unreadByUser = await unreadInChannels(tx, pairs.filter((pair) => hasEventQueue(pair.userId)));
  await recordUnsubscribed(tx, pairs);
  for (const [userId, unread] of unreadByUser) await emitFlagChange(tx, userId, "add", "read", unread);
}
