import { signal } from "@preact/signals";
import { dmKey, dmPeople } from "../model/narrow";
import { topicKey } from "./store";

/**
 * Who is typing where, from typing events: `dm:<ids>` or `topic:<channel>:<topic>` → user ids.
 * A "start" lasts until its "stop" or the server's expiry period, whichever comes first, so a
 * lost "stop" never leaves someone typing forever.
 */

export const typing = signal<Map<string, Set<number>>>(new Map());

const timers = new Map<string, ReturnType<typeof setTimeout>>();

export const dmTypingKey = (userIds: number[], myId: number) => `dm:${dmKey(dmPeople(userIds, myId))}`;
export const topicTypingKey = (channelId: number, topic: string) => `topic:${topicKey(channelId, topic)}`;

function set(key: string, userId: number, on: boolean) {
  const next = new Map(typing.value);
  const people = new Set(next.get(key) ?? []);
  if (on) people.add(userId);
  else people.delete(userId);
  if (people.size) next.set(key, people);
  else next.delete(key);
  typing.value = next;
}

export function typingChanged(key: string, userId: number, on: boolean, expiryMs: number) {
  const timer = `${key}/${userId}`;
  clearTimeout(timers.get(timer));
  timers.delete(timer);
  set(key, userId, on);
  if (on) timers.set(timer, setTimeout(() => (timers.delete(timer), set(key, userId, false)), expiryMs));
}

/** A message from someone ends their typing there. */
export const stoppedBySending = (key: string, userId: number) => typing.value.get(key)?.has(userId) && typingChanged(key, userId, false, 0);
