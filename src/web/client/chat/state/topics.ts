import { signal } from "@preact/signals";
import { api } from "../../ui/api";
import { sameTopic } from "../model/narrow";
import { onNewMessage } from "./events";

/**
 * The topics of each channel the person opened, newest activity first: fetched once per
 * channel (GET /users/me/{stream_id}/topics) and kept current by new messages, so the
 * sidebar and the topic autocomplete agree without fetching again.
 */

export interface Topic {
  name: string;
  maxId: number;
}

export const topicsByChannel = signal<Map<number, Topic[]>>(new Map());
const requested = new Set<number>();

export function loadTopics(channelId: number) {
  if (requested.has(channelId)) return;
  requested.add(channelId);
  api<{ topics: Array<{ name: string; max_id: number }> }>("GET", `/users/me/${channelId}/topics`).then(
    ({ topics }) => {
      const known = topicsByChannel.value.get(channelId) ?? [];
      const merged = new Map(topics.map((topic) => [topic.name.toLowerCase(), { name: topic.name, maxId: topic.max_id }]));
      // Messages that came live while this was fetched are newer than the answer.
      for (const topic of known) if ((merged.get(topic.name.toLowerCase())?.maxId ?? 0) < topic.maxId) merged.set(topic.name.toLowerCase(), topic);
      set(channelId, [...merged.values()]);
    },
    () => requested.delete(channelId),
  );
}

function set(channelId: number, topics: Topic[]) {
  const next = new Map(topicsByChannel.value);
  next.set(channelId, topics.sort((a, b) => b.maxId - a.maxId));
  topicsByChannel.value = next;
}

/** After a new register the lists may have missed moves and deletions: fetched again when next shown. */
export function forgetTopics() {
  requested.clear();
  topicsByChannel.value = new Map();
}

onNewMessage((message) => {
  if (message.type !== "stream" || message.stream_id === undefined || !requested.has(message.stream_id)) return;
  const topics = (topicsByChannel.value.get(message.stream_id) ?? []).filter((topic) => !sameTopic(topic.name, message.subject));
  set(message.stream_id, [{ name: message.subject, maxId: message.id }, ...topics]);
});
