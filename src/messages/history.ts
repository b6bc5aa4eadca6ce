import { and, min, type SQL, sql } from "drizzle-orm";
import type { ChannelViewer } from "../access/channels";
import { realmLinkifiers } from "../db/linkifiers";
import { type Message, messages } from "../db/messages";
import { type MessageKey, stateOf, isRead, wasReceived, unreadIdsSql } from "../db/messageState";
import { getRealm, type Realm, realmHost } from "../db/realm";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { apiFlags, type ApiMessage, messageToApi, messageViewerIn } from "../shapes/messages";
import type { NarrowTerm } from "./narrow";
import { matching, narrowQuery, type NarrowQuery, type NarrowScope } from "./narrowQuery";
import { loadMessageParts, messagesByIds } from "./parts";
import { highlightHtml, highlightTopic } from "./search";
import { lazyChannelViewer } from "../access/messageReading";

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

/** The anchor as a message ID: "oldest" 0, "newest" and beyond the largest ID LARGER_THAN_MAX_MESSAGE_ID. */
export function resolveAnchor(db: Reader, anchor: Anchor, where: SQL, userId: number): number {
  if (anchor === "oldest") return 0;
  if (anchor === "newest") return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === "first_unread") {
    const row = db.select({ id: min(messages.id) }).from(messages).where(and(where, sql`${messages.id} IN (${unreadIdsSql(userId)})`)).get();
    return row?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
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
  rows: Message[];
  anchor: number;
  found_anchor: boolean;
  found_newest: boolean;
  found_oldest: boolean;
}

/**
 * Up to numBefore messages before the anchor, the anchor itself, up to numAfter after it.
 * Each side fetches one more row than it returns, so found_oldest/found_newest are exact.
 */
export function fetchWindow(db: Reader, query: Pick<NarrowQuery, "where" | "match">, anchor: number, range: RangeRequest): Window {
  const toLeft = anchor === 0;
  const toRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const side = (before: boolean, limit: number) => {
    const [comparison, order] = before ? [sql`<`, sql`DESC`] : [sql`>`, sql`ASC`];
    // A search walks the full-text index from the anchor outwards and stops at `limit` hits,
    // rather than collecting every message with the word first.
    const statement = query.match
      ? sql`SELECT messages.id AS id FROM messages_fts CROSS JOIN messages ON messages.id = messages_fts.rowid
            WHERE messages_fts MATCH ${query.match} AND messages_fts.rowid ${comparison} ${anchor} AND ${query.where}
            ORDER BY messages_fts.rowid ${order} LIMIT ${limit}`
      : sql`SELECT id FROM messages WHERE ${query.where} AND id ${comparison} ${anchor} ORDER BY id ${order} LIMIT ${limit}`;
    return db.all<{ id: number }>(statement).map((row) => row.id);
  };
  const before = toLeft ? [] : side(true, range.numBefore + 1);
  const after = toRight ? [] : side(false, range.numAfter + 1);
  const at = range.includeAnchor && !toLeft && !toRight ? db.all<{ id: number }>(sql`SELECT id FROM messages WHERE ${matching(query)} AND id = ${anchor}`) : [];
  return {
    rows: messagesByIds([...before.slice(0, range.numBefore), ...at.map((row) => row.id), ...after.slice(0, range.numAfter)]),
    anchor,
    found_anchor: at.length > 0,
    found_oldest: before.length <= range.numBefore,
    found_newest: after.length <= range.numAfter,
  };
}

/** One reader's request: who reads, with what is needed about them fetched once. */
export interface Reading {
  db: Reader;
  user: User;
  realm: Realm;
  viewer: ChannelViewer;
}

export function reading(db: Reader, user: User): Reading {
  return { db, user, realm: getRealm(db), viewer: lazyChannelViewer(db, user) };
}

/** The caller's flags for each message, with "historical" for channel messages they did not receive. */
export function flagsFor(db: Reader, userId: number, list: MessageKey[], subscribed?: Set<number>): Map<number, string[]> {
  const state = stateOf(db, userId, list, subscribed);
  return new Map(
    list.map((message) => {
      const flags = apiFlags(state.bits.get(message.id) ?? 0, isRead(state, message));
      if (!wasReceived(state.periods, userId, message)) flags.push("historical");
      return [message.id, flags];
    }),
  );
}

/** Message objects for the caller, with flags, and the search highlights when the narrow searched. */
export function shapeMessages(context: Reading, list: Message[], query: Pick<NarrowQuery, "search">, options: ClientOptions): ApiMessage[] {
  const { db, user, realm } = context;
  const view = {
    ...messageViewerIn(realm, user),
    linkifiers: realmLinkifiers(db),
    applyMarkdown: options.applyMarkdown,
    clientGravatar: options.clientGravatar,
    allowEmptyTopicName: options.allowEmptyTopicName,
    emptyTopicDisplayName: realm.settings.empty_topic_display_name,
  };
  const flags = flagsFor(db, user.id, list, context.viewer.subscribedIds);
  return loadMessageParts(db, list).map((parts) => {
    const shaped: ApiMessage & { match_content?: string; match_subject?: string } = messageToApi(parts, view, flags.get(parts.message.id));
    if (query.search) {
      shaped.match_content = highlightHtml(parts.message.renderedContent, query.search);
      shaped.match_subject = highlightTopic(shaped.subject, query.search);
    }
    return shaped;
  });
}

export function narrowFor(context: Reading, narrow: NarrowTerm[], scope?: NarrowScope): NarrowQuery {
  const { realm } = context;
  return narrowQuery(context.db, { viewer: context.viewer, realmHost: realmHost(realm), emptyTopicDisplayName: realm.settings.empty_topic_display_name }, narrow, scope);
}
