import { computed, signal } from "@preact/signals";
import { dmKey, dmPeople, isMention, messageDmPeople } from "../model/narrow";
import type { Message, UnreadMsgs } from "../model/types";
import { isTopicMuted, me, topicKey } from "./store";

/**
 * Which messages the person has not read, by id, with where each one is: from the register
 * snapshot's unread_msgs, then kept by message and flag events. Counts per channel, topic and
 * conversation are derived from it, so they can never disagree with each other.
 */

export interface UnreadPlace {
  channelId?: number;
  topic?: string;
  dm?: string;
  mentioned: boolean;
}

export const unreads = signal<Map<number, UnreadPlace>>(new Map());

export function loadUnreads(unread: UnreadMsgs, myId: number) {
  const next = new Map<number, UnreadPlace>();
  const mentions = new Set(unread.mentions ?? []);
  for (const topic of unread.streams ?? [])
    for (const id of topic.unread_message_ids) next.set(id, { channelId: topic.stream_id, topic: topic.topic, mentioned: mentions.has(id) });
  for (const dm of unread.pms ?? []) for (const id of dm.unread_message_ids) next.set(id, { dm: dmKey(dmPeople([dm.other_user_id], myId)), mentioned: mentions.has(id) });
  for (const group of unread.huddles ?? [])
    for (const id of group.unread_message_ids) next.set(id, { dm: dmKey(dmPeople(group.user_ids_string.split(",").map(Number), myId)), mentioned: mentions.has(id) });
  unreads.value = next;
}

export function placeOf(message: Message): UnreadPlace {
  if (message.type === "stream" && message.stream_id !== undefined) return { channelId: message.stream_id, topic: message.subject, mentioned: isMention(message) };
  return { dm: dmKey(messageDmPeople(message, me.value.userId)), mentioned: isMention(message) };
}

export function addUnread(message: Message) {
  if (message.flags.includes("read")) return;
  const next = new Map(unreads.value);
  next.set(message.id, placeOf(message));
  unreads.value = next;
}

export function removeUnreads(ids: Iterable<number>) {
  let next: Map<number, UnreadPlace> | undefined;
  for (const id of ids) {
    if (!unreads.value.has(id)) continue;
    next ??= new Map(unreads.value);
    next.delete(id);
  }
  if (next) unreads.value = next;
}

/** Moved or re-flagged messages keep their unread state at their new place. */
export function moveUnreads(ids: number[], to: (place: UnreadPlace) => UnreadPlace) {
  let next: Map<number, UnreadPlace> | undefined;
  for (const id of ids) {
    const place = unreads.value.get(id);
    if (!place) continue;
    next ??= new Map(unreads.value);
    next.set(id, to(place));
  }
  if (next) unreads.value = next;
}

export interface UnreadCounts {
  total: number;
  mentions: number;
  dms: number;
  byChannel: Map<number, number>;
  byTopic: Map<string, number>;
  byDm: Map<string, number>;
}

const bump = <K,>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

/** Counts for the sidebar and the tab title; muted topics count only where they are shown. */
export const unreadCounts = computed<UnreadCounts>(() => {
  const counts: UnreadCounts = { total: 0, mentions: 0, dms: 0, byChannel: new Map(), byTopic: new Map(), byDm: new Map() };
  for (const place of unreads.value.values()) {
    if (place.mentioned) counts.mentions++;
    if (place.dm !== undefined) {
      bump(counts.byDm, place.dm);
      counts.dms++;
      counts.total++;
      continue;
    }
    if (place.channelId === undefined) continue;
    bump(counts.byTopic, topicKey(place.channelId, place.topic ?? ""));
    if (isTopicMuted(place.channelId, place.topic ?? "")) continue;
    bump(counts.byChannel, place.channelId);
    counts.total++;
  }
  return counts;
});
