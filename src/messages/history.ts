import type { ChannelViewer } from "../access/channels";
import { lazyChannelViewer } from "../access/messageReading";
import { realmLinkifiers } from "../db/linkifiers";
import type { Message } from "../db/messages";
import { messagesByIds } from "../db/messageHistory";
import { isRead, lowestPossiblyUnreadId, type MessageKey, maxMessageId, stateOf, wasReceived } from "../db/messageState";
import { narrowIdsInRange, narrowMatchingIds } from "../db/narrowQuery";
import { readInSlices, Stride } from "../db/slices";
import { read } from "../db/transaction";
import { getRealm, type Realm, realmHost } from "../db/realm";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { apiFlags, type ApiMessage, messageToApi, messageViewerIn } from "../shapes/messages";
import type { NarrowTerm } from "./narrow";
import { narrowQuery, type NarrowQuery, type NarrowScope } from "./narrowQuery";
import { loadMessageParts } from "./parts";
import { highlightHtml, highlightTopic } from "./search";

/**
 * Windows of message history: an anchor, the messages of a narrow around it, each shaped with
 * the caller's flags. GET /messages (reads/messages.ts) and the flag changes for a narrow
 * (actions/messageFlagsNarrow.ts) both walk history this way.
 */

/** The reference's stand-in for "after every message": anchor "newest". */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

export type Anchor = number | "newest" | "oldest" | "first_unread";

export interface ClientOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

export interface RangeRequest {
  /** Undefined: the narrow's `near` operand, else an error. */
  anchor?: Anchor;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

/** The anchor as a message ID: "oldest" 0, "newest" and beyond the largest ID LARGER_THAN_MAX_MESSAGE_ID, "first_unread" found by a walk. */
export async function resolveAnchor(user: User, query: NarrowQuery, anchor: Anchor): Promise<number> {
  if (anchor === "oldest") return 0;
  if (anchor === "newest") return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === "first_unread") {
    // Nothing at or below the lowest read mark of the user's conversations can be unread, unless marked so by hand.
    const start = await read((db) => lowestPossiblyUnreadId(db, user.id));
    const unread = { ...query, filter: { ...query.filter, unreadOnly: true } };
    const [first] = await walkSide(unread, start - 1, "after", 1);
    return first ?? LARGER_THAN_MAX_MESSAGE_ID;
  }
  return Math.min(Math.max(anchor, 0), LARGER_THAN_MAX_MESSAGE_ID);
}

/** Parses the anchor parameter's text ("newest", "oldest", "first_unread" or an integer). */
export function parseAnchor(raw: string): Anchor {
  const text = raw.trim().replace(/^"(.*)"$/, "$1");
  if (text === "newest" || text === "oldest" || text === "first_unread") return text;
  if (!/^-?[0-9]{1,30}$/.test(text)) throw badRequest("Invalid anchor");
  return Number(text);
}

export interface Window {
  /** The messages' IDs, in order. */
  ids: number[];
  anchor: number;
  found_anchor: boolean;
  found_newest: boolean;
  found_oldest: boolean;
}

/**
 * Up to numBefore messages before the anchor, the anchor itself, up to numAfter after it.
 * Each side looks for one more than it returns, so found_oldest/found_newest are exact.
 */
export async function fetchWindow(query: NarrowQuery, anchor: number, range: RangeRequest): Promise<Window> {
  const toLeft = anchor === 0;
  const toRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const before = toLeft ? [] : await walkSide(query, anchor, "before", range.numBefore + 1);
  const after = toRight ? [] : await walkSide(query, anchor, "after", range.numAfter + 1);
  const at = range.includeAnchor && !toLeft && !toRight ? await read((db) => matchingIds(db, query, [anchor])) : [];
  return {
    ids: [...before.slice(0, range.numBefore).reverse(), ...at, ...after.slice(0, range.numAfter)],
    anchor,
    found_anchor: at.length > 0,
    found_oldest: before.length <= range.numBefore,
    found_newest: after.length <= range.numAfter,
  };
}

/** Which of these message IDs (in ascending order) match the narrow, in one query. */
export const matchingIds = async (db: Reader, query: NarrowQuery, ascending: number[]): Promise<number[]> => narrowMatchingIds(db, query.filter, ascending);

/**
 * Up to `limit` IDs of messages matching the narrow, nearest the anchor first, on one side of
 * it (the anchor itself excluded). History is walked in strides of IDs, each one query, in
 * slices: however rarely the narrow matches, no query reads much and the event loop is never
 * held for long.
 */
export async function walkSide(query: NarrowQuery, anchor: number, side: "before" | "after", limit: number): Promise<number[]> {
  const found: number[] = [];
  const stride = new Stride();
  let edge = anchor;
  return readInSlices(async (db, slice) => {
    const end = (await maxMessageId(db)) + 1;
    for (;;) {
      const to = side === "before" ? Math.min(edge, end) : Math.min(edge + 1 + stride.ids, end);
      const from = side === "before" ? Math.max(0, to - stride.ids) : edge + 1;
      if (from >= to || found.length >= limit) return found;
      const started = performance.now();
      found.push(...(await narrowIdsInRange(db, query.filter, { from, to }, side === "before" ? "DESC" : "ASC", limit - found.length)));
      stride.after(started);
      edge = side === "before" ? from : to - 1;
      if (slice.over) return undefined;
    }
  });
}

/** One reader's request: who reads, with what is needed about them fetched once. */
export interface Reading {
  db: Reader;
  user: User;
  realm: Realm;
  viewer: ChannelViewer;
}

export async function reading(db: Reader, user: User): Promise<Reading> {
  return { db, user, realm: await getRealm(db), viewer: await lazyChannelViewer(db, user) };
}

/** The caller's flags for each message, with "historical" for channel messages they did not receive. */
export async function flagsFor(db: Reader, userId: number, list: MessageKey[], subscribed?: Set<number>): Promise<Map<number, string[]>> {
  const state = await stateOf(db, userId, list, subscribed);
  return new Map(
    list.map((message) => {
      const flags = apiFlags(state.bits.get(message.id) ?? 0, isRead(state, message));
      if (!wasReceived(state.periods, userId, message)) flags.push("historical");
      return [message.id, flags];
    }),
  );
}

/** Message objects for the caller, with flags, and the search highlights when the narrow searched. */
export async function shapeMessages(context: Reading, list: Message[], query: Pick<NarrowQuery, "search">, options: ClientOptions): Promise<ApiMessage[]> {
  const { db, user, realm } = context;
  const view = {
    ...messageViewerIn(realm, user),
    linkifiers: await realmLinkifiers(db),
    applyMarkdown: options.applyMarkdown,
    clientGravatar: options.clientGravatar,
    allowEmptyTopicName: options.allowEmptyTopicName,
    emptyTopicDisplayName: realm.settings.empty_topic_display_name,
  };
  const flags = await flagsFor(db, user.id, list, context.viewer.subscribedIds);
  return (await loadMessageParts(db, list)).map((parts) => {
    const shaped: ApiMessage & { match_content?: string; match_subject?: string } = messageToApi(parts, view, flags.get(parts.message.id));
    if (query.search) {
      shaped.match_content = highlightHtml(parts.message.renderedContent, query.search);
      shaped.match_subject = highlightTopic(shaped.subject, query.search);
    }
    return shaped;
  });
}

/** Messages shaped per step of shapeInSlices: a step takes a few milliseconds. */
const SHAPE_STEP = 100;

/**
 * The messages with these IDs (in this order; ones deleted meanwhile left out) shaped for the
 * caller, a step at a time, in slices: a page of thousands of messages takes a while to
 * shape, which must not hold the event loop.
 */
export async function shapeInSlices(user: User, ids: number[], query: Pick<NarrowQuery, "search">, options: ClientOptions): Promise<ApiMessage[]> {
  const shaped: ApiMessage[] = [];
  let next = 0;
  return readInSlices(async (db, slice) => {
    const context = await reading(db, user);
    while (next < ids.length && !slice.over) {
      shaped.push(...(await shapeMessages(context, await messagesByIds(db, ids.slice(next, next + SHAPE_STEP)), query, options)));
      next += SHAPE_STEP;
    }
    return next >= ids.length ? shaped : undefined;
  });
}

export async function narrowFor(context: Reading, narrow: NarrowTerm[], scope?: NarrowScope): Promise<NarrowQuery> {
  const { realm } = context;
  return narrowQuery(context.db, { viewer: context.viewer, realmHost: realmHost(realm), emptyTopicDisplayName: realm.settings.empty_topic_display_name }, narrow, scope);
}
