import type { State } from "../support";

/**
 * unread_msgs as a client keeps it: one entry per unread message (where it is, whether it
 * mentions the viewer), grouped again after the events, when muting is known (the reference
 * keeps raw_unread_msgs the same way and builds the aggregate at the end).
 */

type Where = { stream_id: number; topic: string } | { other: number } | { huddle: string };
interface Unread {
  where: Where;
  /** "direct" counts even when muted, "wildcard" only outside muted conversations. */
  mention: "direct" | "wildcard" | null;
}

const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;
const WILDCARD_FLAGS = ["wildcard_mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned"];

const index = (state: State): Map<number, Unread> => state.__unread;

/** Reads the snapshot's unread_msgs into the per-message form. */
export function unreadIndex(state: State) {
  if (!state.unread_msgs) return;
  const unread = new Map<number, Unread>();
  const mentions = new Set<number>(state.unread_msgs.mentions);
  const add = (ids: number[], where: Where) => {
    for (const id of ids) unread.set(id, { where, mention: mentions.has(id) ? "direct" : null });
  };
  for (const entry of state.unread_msgs.streams) add(entry.unread_message_ids, { stream_id: entry.stream_id, topic: entry.topic });
  for (const entry of state.unread_msgs.pms) add(entry.unread_message_ids, { other: entry.other_user_id });
  for (const entry of state.unread_msgs.huddles) add(entry.unread_message_ids, { huddle: entry.user_ids_string });
  state.__unread = unread;
}

function directWhere(state: State, userIds: number[]): Where {
  const others = userIds.filter((id) => id !== state.user_id);
  if (others.length <= 1) return { other: others[0] ?? state.user_id };
  return { huddle: [...others, state.user_id].sort((a, b) => a - b).join(",") };
}

const mentionIn = (flags: string[]): Unread["mention"] => (flags.includes("mentioned") ? "direct" : flags.some((flag) => WILDCARD_FLAGS.includes(flag)) ? "wildcard" : null);

export function applyUnreadMessage(state: State, message: State, flags: string[]) {
  if (!state.__unread || flags.includes("read")) return;
  const where: Where = message.type === "stream" ? { stream_id: message.stream_id, topic: message.subject } : directWhere(state, message.display_recipient.map((user: State) => user.id));
  index(state).set(message.id, { where, mention: mentionIn(flags) });
}

export function applyUnreadFlags(state: State, event: State) {
  if (!state.__unread || event.flag !== "read") return;
  if (event.op === "add") {
    if (event.all) index(state).clear();
    for (const id of event.messages) index(state).delete(id);
    return;
  }
  for (const id of event.messages) {
    const details = event.message_details?.[String(id)];
    if (!details) throw new Error(`Marked unread without message_details for ${id}: ${JSON.stringify(event)}`);
    const where: Where = details.type === "stream" ? { stream_id: details.stream_id, topic: details.topic } : directWhere(state, details.user_ids);
    index(state).set(id, { where, mention: details.mentioned ? "direct" : null });
  }
}

/** Topic and channel moves take unread messages along; a content edit can add or drop a mention. */
export function applyUnreadMove(state: State, event: State) {
  if (!state.__unread) return;
  for (const id of event.message_ids ?? [event.message_id]) {
    const unread = index(state).get(id);
    if (!unread || !("stream_id" in unread.where)) continue;
    if (event.new_stream_id !== undefined || event.subject !== undefined) {
      unread.where = { stream_id: event.new_stream_id ?? unread.where.stream_id, topic: event.subject ?? unread.where.topic };
    }
  }
  const edited = index(state).get(event.message_id);
  if (edited && event.content !== undefined) edited.mention = mentionIn(event.flags);
}

export function forgetUnread(state: State, ids: number[]) {
  if (!state.__unread) return;
  for (const id of ids) index(state).delete(id);
}

function mutedChecker(state: State) {
  const mutedChannels = new Set(state.subscriptions.filter((sub: State) => sub.is_muted).map((sub: State) => sub.stream_id));
  const policies = new Map<string, number>(state.user_topics.map((topic: State) => [`${topic.stream_id}:${topic.topic_name.toLowerCase()}`, topic.visibility_policy]));
  return (streamId: number, topic: string) => {
    const policy = policies.get(`${streamId}:${topic.toLowerCase()}`);
    if (policy === MUTED) return true;
    if (policy === UNMUTED || policy === FOLLOWED) return false;
    return mutedChannels.has(streamId);
  };
}

/** Groups the per-message entries the way register does. */
export function rebuildUnread(state: State) {
  const unread = index(state);
  delete state.__unread;
  if (!unread) return;
  const isMuted = mutedChecker(state);
  const streams = new Map<string, State>();
  const pms = new Map<number, State>();
  const huddles = new Map<string, State>();
  const mentions: number[] = [];
  let count = 0;
  for (const id of [...unread.keys()].sort((a, b) => a - b)) {
    const { where, mention } = unread.get(id)!;
    const muted = "stream_id" in where && isMuted(where.stream_id, where.topic);
    if (!muted) count++;
    if (mention === "direct" || (mention === "wildcard" && !muted)) mentions.push(id);
    if ("stream_id" in where) {
      const key = `${where.stream_id}:${where.topic.toLowerCase()}`;
      if (!streams.has(key)) streams.set(key, { stream_id: where.stream_id, topic: where.topic, unread_message_ids: [] });
      streams.get(key)!.unread_message_ids.push(id);
    } else if ("other" in where) {
      if (!pms.has(where.other)) pms.set(where.other, { other_user_id: where.other, sender_id: where.other, unread_message_ids: [] });
      pms.get(where.other)!.unread_message_ids.push(id);
    } else {
      if (!huddles.has(where.huddle)) huddles.set(where.huddle, { user_ids_string: where.huddle, unread_message_ids: [] });
      huddles.get(where.huddle)!.unread_message_ids.push(id);
    }
  }
  const byTopic = (a: State, b: State) => a.stream_id - b.stream_id || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0);
  state.unread_msgs = {
    count,
    pms: [...pms.values()].sort((a, b) => a.other_user_id - b.other_user_id),
    streams: [...streams.values()].sort(byTopic),
    huddles: [...huddles.values()].sort((a, b) => (a.user_ids_string < b.user_ids_string ? -1 : 1)),
    mentions,
    old_unreads_missing: state.unread_msgs.old_unreads_missing,
  };
}
