import { batch, signal, type Signal } from "@preact/signals";
import { api } from "../../ui/api";
import { narrowContains, narrowKey, narrowTerms, type Narrow } from "../model/narrow";
import type { Message } from "../model/types";
import { me, muting } from "./store";

/**
 * Messages by id, and one list of ids per narrow the person has opened: the window of it that
 * is loaded, with whether its oldest and newest ends are reached. Lists are fetched with
 * GET /messages, extended at either end on scroll, kept for quick switching, and released when
 * old, together with the messages no kept list holds. A list never holds more than
 * MAX_LOADED ids: growing at one end trims the other, which is then fetched again if the
 * person scrolls back there. So memory stays bounded however long the tab is open.
 */

export const messages = new Map<number, Message>();
/** Bumped whenever a message in `messages` changes, so rows can redraw. */
export const messagesVersion = signal(0);

const MAX_LOADED = 400;
const PAGE = 50;
/** Lists kept besides the current one. */
const KEEP_LISTS = 6;

export interface NarrowList {
  narrow: Narrow;
  key: string;
  ids: Signal<number[]>;
  foundOldest: Signal<boolean>;
  foundNewest: Signal<boolean>;
  loading: Signal<"initial" | "older" | "newer" | null>;
  error: Signal<string | null>;
  /** Where the view should open: the first unread, or the message the URL named. */
  openAt: Signal<number | null>;
  lastUsed: number;
  /** Search narrows cannot take live messages; a list that may have missed some is stale. */
  stale: boolean;
  /** Fetches that arrive after the list was reset are dropped. */
  epoch: number;
}

const lists = new Map<string, NarrowList>();

interface Reply {
  messages: Message[];
  found_oldest: boolean;
  found_newest: boolean;
  found_anchor: boolean;
  anchor: number;
}

/** How many fetches are under way: events wait until they land (state/events.ts). */
export const fetchesInFlight = signal(0);

async function fetchMessages(narrow: Narrow, anchor: number | "first_unread" | "newest", before: number, after: number): Promise<Reply> {
  fetchesInFlight.value++;
  try {
    return await api<Reply>("GET", "/messages", {
      narrow: narrowTerms(narrow),
      anchor: String(anchor),
      num_before: before,
      num_after: after,
      apply_markdown: true,
      client_gravatar: false,
      include_anchor: true,
    });
  } finally {
    fetchesInFlight.value--;
  }
}

function storeMessages(fetched: Message[]) {
  for (const message of fetched) messages.set(message.id, message);
  messagesVersion.value++;
}

const sortedUnion = (a: number[], b: number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);

function newList(narrow: Narrow): NarrowList {
  return {
    narrow,
    key: narrowKey(narrow),
    ids: signal([]),
    foundOldest: signal(false),
    foundNewest: signal(false),
    loading: signal(null),
    error: signal(null),
    openAt: signal(null),
    lastUsed: Date.now(),
    stale: false,
    epoch: 0,
  };
}

/** The list of a narrow, fetched when new or stale; `anchor` opens it at that message. */
export function openList(narrow: Narrow, anchor?: number): NarrowList {
  const key = narrowKey(narrow);
  let list = lists.get(key);
  const reopenAt = anchor !== undefined && !list?.ids.value.includes(anchor);
  if (!list) {
    list = newList(narrow);
    lists.set(key, list);
  }
  list.lastUsed = Date.now();
  if (list.ids.value.length === 0 || list.stale || reopenAt) void loadInitial(list, anchor);
  else if (anchor !== undefined) list.openAt.value = anchor;
  releaseOldLists(list);
  return list;
}

/** Fetches the list afresh around `anchor`, the first unread when none, or its newest end. */
export async function loadInitial(list: NarrowList, anchor?: number | "newest") {
  const epoch = ++list.epoch;
  list.loading.value = "initial";
  list.error.value = null;
  try {
    const reply = await fetchMessages(list.narrow, anchor ?? "first_unread", PAGE, PAGE);
    if (epoch !== list.epoch) return;
    batch(() => {
      storeMessages(reply.messages);
      // Events wait while this is fetched (state/events.ts), so the reply is the whole truth now.
      list.ids.value = reply.messages.map((message) => message.id);
      list.foundOldest.value = reply.found_oldest;
      list.foundNewest.value = reply.found_newest;
      list.stale = false;
      const firstUnread = reply.messages.find((message) => !message.flags.includes("read"));
      list.openAt.value = anchor === "newest" ? null : (anchor ?? (reply.found_anchor ? reply.anchor : (firstUnread?.id ?? null)));
      list.loading.value = null;
    });
  } catch (error) {
    if (epoch !== list.epoch) return;
    batch(() => {
      list.error.value = (error as Error).message;
      list.loading.value = null;
    });
  }
}

/** Loads the page before the oldest loaded message; trims the newest end past MAX_LOADED. */
export async function loadOlder(list: NarrowList) {
  const ids = list.ids.value;
  if (list.loading.value || list.foundOldest.value || ids.length === 0) return;
  const epoch = list.epoch;
  list.loading.value = "older";
  try {
    const reply = await fetchMessages(list.narrow, ids[0], PAGE, 0);
    if (epoch !== list.epoch) return;
    batch(() => {
      storeMessages(reply.messages);
      let next = sortedUnion(reply.messages.map((message) => message.id), list.ids.value);
      if (next.length > MAX_LOADED) {
        next = next.slice(0, MAX_LOADED);
        list.foundNewest.value = false;
      }
      list.ids.value = next;
      list.foundOldest.value = reply.found_oldest;
      list.loading.value = null;
    });
  } catch (error) {
    if (epoch === list.epoch) batch(() => ((list.error.value = (error as Error).message), (list.loading.value = null)));
  }
}

/** Loads the page after the newest loaded message; trims the oldest end past MAX_LOADED. */
export async function loadNewer(list: NarrowList) {
  const ids = list.ids.value;
  if (list.loading.value || list.foundNewest.value || ids.length === 0) return;
  const epoch = list.epoch;
  list.loading.value = "newer";
  try {
    const reply = await fetchMessages(list.narrow, ids[ids.length - 1], 0, PAGE);
    if (epoch !== list.epoch) return;
    batch(() => {
      storeMessages(reply.messages);
      list.ids.value = trimOldest(list, sortedUnion(list.ids.value, reply.messages.map((message) => message.id)));
      list.foundNewest.value = reply.found_newest;
      list.loading.value = null;
    });
  } catch (error) {
    if (epoch === list.epoch) batch(() => ((list.error.value = (error as Error).message), (list.loading.value = null)));
  }
}

function trimOldest(list: NarrowList, ids: number[]): number[] {
  if (ids.length <= MAX_LOADED) return ids;
  list.foundOldest.value = false;
  return ids.slice(ids.length - MAX_LOADED);
}

/** A new message from the event queue: added to every kept list it belongs in. */
export function addLiveMessage(message: Message) {
  messages.set(message.id, message);
  for (const list of lists.values()) {
    const belongs = narrowContains(list.narrow, message, me.value.userId, muting);
    if (belongs === undefined) list.stale = true;
    // A list that does not reach the newest end gets it when the person scrolls there.
    if (!belongs || !list.foundNewest.value || list.ids.value.includes(message.id)) continue;
    list.ids.value = trimOldest(list, sortedUnion(list.ids.value, [message.id]));
  }
  // Messages no list holds (trimmed, or in no kept narrow) go once there are enough of them.
  if (messages.size > (lists.size + 1) * MAX_LOADED) collectUnreferenced();
  messagesVersion.value++;
}

export function updateMessage(id: number, change: (message: Message) => Message) {
  const message = messages.get(id);
  if (!message) return;
  const changed = change(message);
  messages.set(id, changed);
  // A message that moved out of a narrow leaves it; lists it may have moved into are fetched again.
  for (const list of lists.values()) {
    const belongs = narrowContains(list.narrow, changed, me.value.userId, muting);
    if (belongs === false && list.ids.value.includes(id)) list.ids.value = list.ids.value.filter((other) => other !== id);
    else if (belongs !== false && !list.ids.value.includes(id)) list.stale = true;
  }
}

export function removeMessages(ids: number[]) {
  const gone = new Set(ids);
  for (const id of ids) messages.delete(id);
  for (const list of lists.values()) if (list.ids.value.some((id) => gone.has(id))) list.ids.value = list.ids.value.filter((id) => !gone.has(id));
  messagesVersion.value++;
}

/** Every kept list is dropped but the one shown, which is fetched again (after a new register). */
export async function refetchAll(current: NarrowList | null) {
  for (const [key, list] of lists) if (list !== current) lists.delete(key);
  collectUnreferenced();
  if (!current) return;
  // The shown messages stay on screen until the fresh ones replace them.
  current.stale = true;
  await loadInitial(current, current.foundNewest.value ? undefined : current.ids.value[0]);
}

function releaseOldLists(current: NarrowList) {
  if (lists.size <= KEEP_LISTS + 1) return;
  const byAge = [...lists.values()].filter((list) => list !== current).sort((a, b) => a.lastUsed - b.lastUsed);
  for (const list of byAge.slice(0, lists.size - KEEP_LISTS - 1)) lists.delete(list.key);
  collectUnreferenced();
}

function collectUnreferenced() {
  const kept = new Set<number>();
  for (const list of lists.values()) for (const id of list.ids.value) kept.add(id);
  for (const id of messages.keys()) if (!kept.has(id)) messages.delete(id);
}
