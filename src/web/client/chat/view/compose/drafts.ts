import { dmKey, dmPeople } from "../../model/narrow";
import type { Destination } from "../../state/echo";

/**
 * Unsent text, one draft per conversation, in the browser's localStorage so a reload or a
 * crash keeps it. The server's own drafts (/drafts) are not used: they would need a request per
 * pause in typing, and what matters here is not losing text in this browser.
 *
 * Each value remembers whose it is, so two people taking turns in one browser never see each
 * other's drafts, and when it was saved, so only the newest MAX_DRAFTS are kept.
 */

export const DRAFT_PREFIX = "parley-draft:";
export const MAX_DRAFTS = 50;

/** The parts of Storage used here; tests pass a Map-backed one. */
export type DraftStorage = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

interface StoredDraft {
  text: string;
  /** Milliseconds since the epoch. */
  at: number;
  user: number;
}

/** `stream:<channelId>:<topic lower-cased>` or `dm:<ids>`: topics compare without case, as the server groups them. */
export function draftKey(destination: Destination, myId: number): string {
  if (destination.type === "stream") return `stream:${destination.channelId}:${destination.topic.trim().toLowerCase()}`;
  return `dm:${dmKey(dmPeople(destination.userIds, myId))}`;
}

const defaultStorage = (): DraftStorage | null => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can be switched off (privacy settings): drafts then last as long as the page.
    return null;
  }
};

function read(storage: DraftStorage, item: string): StoredDraft | null {
  try {
    const value = JSON.parse(storage.getItem(item) ?? "null") as StoredDraft | null;
    return value && typeof value.text === "string" && typeof value.at === "number" ? value : null;
  } catch {
    return null;
  }
}

export function loadDraft(key: string, myId: number, storage = defaultStorage()): string | null {
  if (!storage) return null;
  const draft = read(storage, DRAFT_PREFIX + key);
  return draft && draft.user === myId ? draft.text : null;
}

/** Saves the text (an empty one deletes the draft), then drops the oldest beyond MAX_DRAFTS. */
export function saveDraft(key: string, text: string, myId: number, storage = defaultStorage(), now = Date.now()) {
  if (!storage) return;
  if (text.trim() === "") return deleteDraft(key, storage);
  try {
    storage.setItem(DRAFT_PREFIX + key, JSON.stringify({ text, at: now, user: myId } satisfies StoredDraft));
  } catch {
    // Full storage: make room by dropping the oldest half, then try once more.
    pruneDrafts(storage, Math.floor(MAX_DRAFTS / 2));
    try {
      storage.setItem(DRAFT_PREFIX + key, JSON.stringify({ text, at: now, user: myId } satisfies StoredDraft));
    } catch {
      return;
    }
  }
  pruneDrafts(storage, MAX_DRAFTS);
}

export function deleteDraft(key: string, storage = defaultStorage()) {
  storage?.removeItem(DRAFT_PREFIX + key);
}

/** Keeps the `keep` newest drafts (of anyone) and removes the rest, and anything unreadable. */
export function pruneDrafts(storage: DraftStorage, keep = MAX_DRAFTS) {
  const found: Array<{ item: string; at: number }> = [];
  for (let index = 0; index < storage.length; index++) {
    const item = storage.key(index);
    if (item?.startsWith(DRAFT_PREFIX)) found.push({ item, at: read(storage, item)?.at ?? -1 });
  }
  if (found.length <= keep) return;
  found.sort((a, b) => b.at - a.at);
  for (const { item } of found.slice(keep)) storage.removeItem(item);
}
