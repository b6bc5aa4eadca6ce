import { accessibleMessages } from "../access/messageReading";
import { readInSlices, yieldToOthers } from "../db/slices";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { type ClientOptions, fetchWindow, matchingIds, narrowFor, type RangeRequest, reading, resolveAnchor, shapeInSlices, shapeMessages } from "../messages/history";
import type { NarrowTerm } from "../messages/narrow";
import type { NarrowQuery } from "../messages/narrowQuery";
import { messagesByIds } from "../db/messageHistory";
import { highlightHtml, highlightTopic } from "../messages/search";
import { escapeHtml } from "../render/plugins/env";

const MAX_MESSAGES_PER_FETCH = 5000;

/** GET /messages (reference: get-messages), the anchor-and-range form. */
export async function getMessageRange(viewer: User, narrow: NarrowTerm[], range: RangeRequest, options: ClientOptions) {
  if (range.numBefore + range.numAfter > MAX_MESSAGES_PER_FETCH) throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  const { query, requested } = await read(async (db) => {
    const query = await narrowFor(await reading(db, viewer), narrow);
    return { query, requested: range.anchor ?? query.near ?? undefined };
  });
  if (requested === undefined) throw badRequest("Missing 'anchor' argument.");
  const window = await fetchWindow(query, await resolveAnchor(viewer, query, requested), range);
  return {
    messages: await shapeInSlices(viewer, window.ids, query, options),
    anchor: window.anchor,
    found_anchor: window.found_anchor,
    found_newest: window.found_newest,
    found_oldest: window.found_oldest,
    // Nothing is hidden for plan reasons here, so history is never limited.
    history_limited: false,
  };
}

/** Message IDs looked at per step when given a list: one query each. */
const ID_STEP = 500;

/** Those of the IDs (any order, repeats allowed) that match the narrow, ascending, checked in slices. */
async function matchingOf(query: NarrowQuery, messageIds: number[]): Promise<number[]> {
  const ascending = [...new Set(messageIds)].sort((a, b) => a - b);
  // Reading and checking a long list took a while already: let others in before the work.
  if (ascending.length > ID_STEP) await yieldToOthers();
  const matched: number[] = [];
  let next = 0;
  return readInSlices(async (db, slice) => {
    while (next < ascending.length && !slice.over) {
      matched.push(...(await matchingIds(db, query, ascending.slice(next, next + ID_STEP))));
      next += ID_STEP;
    }
    return next >= ascending.length ? matched : undefined;
  });
}

/** GET /messages, the message_ids form: those of the IDs that exist, the caller may read and match the narrow. */
export async function getMessagesById(viewer: User, narrow: NarrowTerm[], messageIds: number[], options: ClientOptions) {
  if (messageIds.length > MAX_MESSAGES_PER_FETCH) throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  const query = await read(async (db) => narrowFor(await reading(db, viewer), narrow, "readable"));
  return { messages: await shapeInSlices(viewer, await matchingOf(query, messageIds), query, options), history_limited: false };
}

/** GET /messages/{message_id}: one message the caller may read, and its Markdown source. */
export function getSingleMessage(viewer: User, messageId: number, options: ClientOptions) {
  return read(async (db) => {
    const context = await reading(db, viewer);
    const [message] = await accessibleMessages(db, context.viewer, [messageId]);
    const [shaped] = await shapeMessages(context, [message], { search: null }, options);
    return { raw_content: message.content, message: shaped };
  });
}

/**
 * GET /messages/matches_narrow (spec 4.6): which of the messages the caller received match the
 * narrow, keyed by ID, with the content HTML and the escaped topic, search matches highlighted.
 */
export async function getMessageMatches(viewer: User, messageIds: number[], narrow: NarrowTerm[]) {
  if (messageIds.length === 0) return {};
  const query = await read(async (db) => narrowFor(await reading(db, viewer), narrow, "received"));
  const ids = await matchingOf(query, messageIds);
  const matches: Record<string, { match_content: string; match_subject: string }> = {};
  let next = 0;
  return readInSlices(async (db, slice) => {
    while (next < ids.length && !slice.over) {
      for (const row of await messagesByIds(db, ids.slice(next, next + ID_STEP))) {
        matches[row.id] = query.search
          ? { match_content: highlightHtml(row.renderedContent, query.search), match_subject: highlightTopic(row.topic, query.search) }
          : { match_content: row.renderedContent, match_subject: escapeHtml(row.topic) };
      }
      next += ID_STEP;
    }
    return next >= ids.length ? matches : undefined;
  });
}
