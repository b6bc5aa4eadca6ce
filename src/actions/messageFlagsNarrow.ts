import { write } from "../db/transaction";
import type { User } from "../db/users";
import { type Anchor, fetchWindow, narrowFor, reading, resolveAnchor } from "../messages/history";
import type { NarrowTerm } from "../messages/narrow";
import { matching } from "../messages/narrowQuery";
import { changeFlags, checkFlagChange } from "./messageFlags";

/** The reference's MAX_MESSAGES_PER_UPDATE: one call changes at most this many messages. */
export const MAX_MESSAGES_PER_UPDATE = 5000;

export interface FlagsForNarrowRequest {
  anchor: Anchor;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: NarrowTerm[];
  operation: string;
  flag: string;
}

/**
 * POST /messages/flags/narrow: changes a flag on a range of the messages matching a narrow,
 * chosen as GET /messages chooses them. The range is cut to MAX_MESSAGES_PER_UPDATE, after
 * messages, so each call stays one bounded transaction; clients continue from the IDs returned.
 */
export function updateFlagsForNarrow(user: User, request: FlagsForNarrowRequest) {
  const { operation, flag } = checkFlagChange(request.operation, request.flag);
  const numAfter = Math.min(request.numAfter, MAX_MESSAGES_PER_UPDATE);
  const numBefore = Math.min(request.numBefore, Math.max(MAX_MESSAGES_PER_UPDATE - numAfter, 0));
  return write((tx) => {
    const query = narrowFor(reading(tx, user), request.narrow);
    const anchor = resolveAnchor(tx, request.anchor, matching(query), user.id);
    const window = fetchWindow(tx, query, anchor, { numBefore, numAfter, includeAnchor: request.includeAnchor });
    const result = changeFlags(tx, user, window.rows, operation, flag);
    const ids = window.rows.map((row) => row.id);
    return {
      processed_count: ids.length,
      updated_count: result.changed.length,
      first_processed_id: ids[0] ?? null,
      last_processed_id: ids.at(-1) ?? null,
      found_oldest: window.found_oldest,
      found_newest: window.found_newest,
      ...(flag === "read" && operation === "remove" ? { ignored_because_not_subscribed_channels: result.ignoredChannels } : {}),
    };
  });
}
