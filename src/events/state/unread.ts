import { mutedChannelIdsOfUser } from "../../db/channels";
import { directParticipants } from "../../db/conversations";
import { Flag } from "../../db/messages";
import { listUnreadAmong, listUnreadInIdRange, lowestPossiblyUnreadId, maxMessageId, type UnreadRow } from "../../db/messageState";
import { readInSlices, Stride } from "../../db/slices";
import { read } from "../../db/transaction";
import type { Reader } from "../../db/types";
import { listUserTopicsOf, VisibilityPolicy } from "../../db/userTopics";
import type { UnreadMessageDetails } from "../kinds/messageFlags";

/**
 * The unread_msgs register section (reference: POST /register, unread_msgs) and the
 * message_details of update_message_flags events, both built from db/messageState.ts's unread rows.
 */

/** The reference's MAX_UNREAD_MESSAGES: older unread messages are left out of unread_msgs. */
export const MAX_UNREAD_MESSAGES = 50_000;
/** Unread messages read per query when building unread_msgs. */
const STEP_ROWS = 2000;

const DIRECT_MENTION = Flag.MENTIONED | Flag.GROUP_MENTIONED;
const WILDCARD_MENTION = Flag.STREAM_WILDCARD_MENTIONED | Flag.TOPIC_WILDCARD_MENTIONED;

/** Whether a channel message is muted for the user: by its topic's policy, else by its channel. */
export async function mutedChecker(db: Reader, userId: number): Promise<(channelId: number, topicKey: string) => boolean> {
  const mutedChannels = new Set(await mutedChannelIdsOfUser(db, userId));
  // Topics left at INHERIT have no row here; they fall through to their channel, as they should.
  const policies = new Map((await listUserTopicsOf(db, userId)).map((row) => [`${row.channelId}:${row.topicKey}`, row.visibilityPolicy]));
  return (channelId, topicKey) => {
    const policy = policies.get(`${channelId}:${topicKey}`);
    if (policy === VisibilityPolicy.MUTED) return true;
    if (policy === VisibilityPolicy.UNMUTED || policy === VisibilityPolicy.FOLLOWED) return false;
    return mutedChannels.has(channelId);
  };
}

/** Direct mentions always count; wildcard mentions only outside muted conversations. */
function mentionsUser(row: UnreadRow, muted: boolean): boolean {
  if (row.bits & DIRECT_MENTION) return true;
  return (row.bits & WILDCARD_MENTION) !== 0 && !muted;
}

/** How a client without the empty_topic_name capability is shown the empty topic; null: as "". */
export type EmptyTopicName = string | null;
const shownTopic = (topic: string, emptyTopicName: EmptyTopicName) => (topic === "" && emptyTopicName !== null ? emptyTopicName : topic);

export interface UnreadMsgs {
  count: number;
  pms: Array<{ other_user_id: number; sender_id: number; unread_message_ids: number[] }>;
  streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }>;
  huddles: Array<{ user_ids_string: string; unread_message_ids: number[] }>;
  mentions: number[];
  old_unreads_missing: boolean;
}

/**
 * The user's newest unread messages, up to one more than MAX_UNREAD_MESSAGES, newest first:
 * found by walking history down in strides of IDs, in slices (db/slices.ts), since tens of
 * thousands of them take a while to read.
 */
async function newestUnread(userId: number): Promise<UnreadRow[]> {
  const rows: UnreadRow[] = [];
  const stride = new Stride();
  const { low, end } = await read(async (db) => ({ low: await lowestPossiblyUnreadId(db, userId), end: (await maxMessageId(db)) + 1 }));
  let to = end;
  return readInSlices(async (db, slice) => {
    while (to > low && rows.length <= MAX_UNREAD_MESSAGES && !slice.over) {
      const from = Math.max(low, to - stride.ids);
      const started = performance.now();
      const step = Math.min(STEP_ROWS, MAX_UNREAD_MESSAGES + 1 - rows.length);
      const found = await listUnreadInIdRange(db, userId, { from, to, limit: step });
      rows.push(...found);
      stride.after(started);
      // A stride thick with unread messages is read a step's worth at a time.
      to = found.length === step ? found[found.length - 1].id : from;
    }
    return to > low && rows.length <= MAX_UNREAD_MESSAGES ? undefined : rows;
  });
}

/** unread_msgs of register (reference: MAX_UNREAD_MESSAGES newest unread messages, grouped). */
export async function unreadMsgs(userId: number, emptyTopicName: EmptyTopicName): Promise<UnreadMsgs> {
  const rows = await newestUnread(userId);
  return read((db) => groupUnread(db, userId, rows, emptyTopicName));
}

async function groupUnread(db: Reader, userId: number, rows: UnreadRow[], emptyTopicName: EmptyTopicName): Promise<UnreadMsgs> {
  const oldUnreadsMissing = rows.length > MAX_UNREAD_MESSAGES;
  const kept = rows.slice(0, MAX_UNREAD_MESSAGES).reverse();
  const isMuted = await mutedChecker(db, userId);
  const participants = await directParticipants(db, [...new Set(kept.filter((row) => row.channelId === null).map((row) => row.recipientId))]);

  const topics = new Map<string, UnreadMsgs["streams"][number]>();
  const pms = new Map<number, UnreadMsgs["pms"][number]>();
  const huddles = new Map<string, UnreadMsgs["huddles"][number]>();
  const mentions: number[] = [];
  let count = 0;
  for (const row of kept) {
    const muted = row.channelId !== null && isMuted(row.channelId, row.topicKey);
    if (!muted) count++;
    if (mentionsUser(row, muted)) mentions.push(row.id);
    if (row.channelId !== null) {
      const key = `${row.channelId}:${row.topicKey}`;
      const entry = topics.get(key) ?? topics.set(key, { stream_id: row.channelId, topic: shownTopic(row.topic, emptyTopicName), unread_message_ids: [] }).get(key)!;
      entry.unread_message_ids.push(row.id);
      continue;
    }
    const members = participants.get(row.recipientId) ?? [userId];
    if (members.length <= 2) {
      const other = members.find((id) => id !== userId) ?? userId;
      const entry = pms.get(other) ?? pms.set(other, { other_user_id: other, sender_id: other, unread_message_ids: [] }).get(other)!;
      entry.unread_message_ids.push(row.id);
    } else {
      const key = members.join(",");
      const entry = huddles.get(key) ?? huddles.set(key, { user_ids_string: key, unread_message_ids: [] }).get(key)!;
      entry.unread_message_ids.push(row.id);
    }
  }
  const byTopic = (a: UnreadMsgs["streams"][number], b: UnreadMsgs["streams"][number]) => a.stream_id - b.stream_id || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0);
  return {
    count,
    pms: [...pms.values()].sort((a, b) => a.other_user_id - b.other_user_id),
    streams: [...topics.values()].sort(byTopic),
    huddles: [...huddles.values()].sort((a, b) => (a.user_ids_string < b.user_ids_string ? -1 : 1)),
    mentions,
    old_unreads_missing: oldUnreadsMissing,
  };
}

/** message_details of an event marking these (now unread) messages unread. */
export async function unreadDetails(db: Reader, userId: number, messageIds: number[]): Promise<Record<string, UnreadMessageDetails>> {
  if (messageIds.length === 0) return {};
  const rows = await listUnreadAmong(db, userId, messageIds);
  const isMuted = await mutedChecker(db, userId);
  const participants = await directParticipants(db, [...new Set(rows.filter((row) => row.channelId === null).map((row) => row.recipientId))]);
  const details: Record<string, UnreadMessageDetails> = {};
  for (const row of rows) {
    const muted = row.channelId !== null && isMuted(row.channelId, row.topicKey);
    const detail: UnreadMessageDetails =
      row.channelId !== null
        ? { type: "stream", stream_id: row.channelId, topic: row.topic }
        : { type: "private", user_ids: (participants.get(row.recipientId) ?? []).filter((id) => id !== userId) };
    if (mentionsUser(row, muted)) detail.mentioned = true;
    details[row.id] = detail;
  }
  return details;
}
