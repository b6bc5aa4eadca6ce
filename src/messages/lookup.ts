import { and, inArray } from "drizzle-orm";
import { messages } from "../db/messages";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { type ClientOptions, narrowFor, reading, shapeMessages } from "./history";
import type { NarrowTerm } from "./narrow";
import { matching } from "./narrowQuery";
import { escapeHtml } from "../render/plugins/env";
import { highlightHtml, highlightTopic } from "./search";
import { accessibleMessages } from "../access/messageReading";

/** GET /messages/{message_id}: one message the caller may read, and its Markdown source. */
export function getSingleMessage(db: Reader, user: User, messageId: number, options: ClientOptions) {
  const context = reading(db, user);
  const [message] = accessibleMessages(db, context.viewer, [messageId]);
  const [shaped] = shapeMessages(context, [message], { search: null }, options);
  return { raw_content: message.content, message: shaped };
}

/**
 * GET /messages/matches_narrow (spec 4.6): which of the messages the caller received match the
 * narrow, keyed by ID, with the content HTML and the escaped topic, search matches highlighted.
 */
export function getMessageMatches(db: Reader, user: User, messageIds: number[], narrow: NarrowTerm[]) {
  if (messageIds.length === 0) return {};
  const query = narrowFor(reading(db, user), narrow, "received");
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
}

