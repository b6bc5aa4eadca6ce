import { and, asc, inArray } from "drizzle-orm";
import { accessibleMessages } from "../access/messageReading";
import { messages } from "../db/messages";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { type ClientOptions, fetchWindow, narrowFor, type RangeRequest, reading, resolveAnchor, shapeMessages } from "../messages/history";
import type { NarrowTerm } from "../messages/narrow";
import { matching } from "../messages/narrowQuery";
import { highlightHtml, highlightTopic } from "../messages/search";
import { escapeHtml } from "../render/plugins/env";

const MAX_MESSAGES_PER_FETCH = 5000;

/** GET /messages (reference: get-messages), the anchor-and-range form. */
export function getMessageRange(viewer: User, narrow: NarrowTerm[], range: RangeRequest, options: ClientOptions) {
  return read((db) => {
    if (range.numBefore + range.numAfter > MAX_MESSAGES_PER_FETCH) throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
    const context = reading(db, viewer);
    const query = narrowFor(context, narrow);
    const requested = range.anchor ?? query.near ?? undefined;
    if (requested === undefined) throw badRequest("Missing 'anchor' argument.");
    const window = fetchWindow(db, query, resolveAnchor(db, requested, matching(query), viewer.id), range);
    return {
      messages: shapeMessages(context, window.rows, query, options),
      anchor: window.anchor,
      found_anchor: window.found_anchor,
      found_newest: window.found_newest,
      found_oldest: window.found_oldest,
      // Nothing is hidden for plan reasons here, so history is never limited.
      history_limited: false,
    };
  });
}

/** GET /messages, the message_ids form: those of the IDs that exist, the caller may read and match the narrow. */
export function getMessagesById(viewer: User, narrow: NarrowTerm[], messageIds: number[], options: ClientOptions) {
  return read((db) => {
    if (messageIds.length > MAX_MESSAGES_PER_FETCH) throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
    const context = reading(db, viewer);
    const query = narrowFor(context, narrow, "readable");
    const rows = messageIds.length === 0 ? [] : db.select().from(messages).where(and(matching(query), inArray(messages.id, messageIds))).orderBy(asc(messages.id)).all();
    return { messages: shapeMessages(context, rows, query, options), history_limited: false };
  });
}

/** GET /messages/{message_id}: one message the caller may read, and its Markdown source. */
export function getSingleMessage(viewer: User, messageId: number, options: ClientOptions) {
  return read((db) => {
    const context = reading(db, viewer);
    const [message] = accessibleMessages(db, context.viewer, [messageId]);
    const [shaped] = shapeMessages(context, [message], { search: null }, options);
    return { raw_content: message.content, message: shaped };
  });
}

/**
 * GET /messages/matches_narrow (spec 4.6): which of the messages the caller received match the
 * narrow, keyed by ID, with the content HTML and the escaped topic, search matches highlighted.
 */
export function getMessageMatches(viewer: User, messageIds: number[], narrow: NarrowTerm[]) {
  return read((db) => {
    if (messageIds.length === 0) return {};
    const query = narrowFor(reading(db, viewer), narrow, "received");
    const rows = db
      .select({ id: messages.id, topic: messages.topic, renderedContent: messages.renderedContent })
      .from(messages)
      .where(and(matching(query), inArray(messages.id, [...new Set(messageIds)])))
      .all();
    const matches: Record<string, { match_content: string; match_subject: string }> = {};
    for (const row of rows) {
      matches[row.id] = query.search
        ? { match_content: highlightHtml(row.renderedContent, query.search), match_subject: highlightTopic(row.topic, query.search) }
        : { match_content: row.renderedContent, match_subject: escapeHtml(row.topic) };
    }
    return matches;
  });
}
