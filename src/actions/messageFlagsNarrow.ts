import { read } from "../db/transaction";
import type { User } from "../db/users";
import { type Anchor, fetchWindow, narrowFor, reading, resolveAnchor } from "../messages/history";
import type { NarrowTerm } from "../messages/narrow";
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
 * messages, as in the reference; clients continue from the IDs returned. Finding the range
 * and changing the flags both go in slices (messages/history.ts, actions/messageFlags.ts).
 */
export async function updateFlagsForNarrow(user: User, request: FlagsForNarrowRequest) {
  const { operation, flag } = checkFlagChange(request.operation, request.flag);
  const numAfter = Math.min(request.numAfter, MAX_MESSAGES_PER_UPDATE);
  const numBefore = Math.min(request.numBefore, Math.max(MAX_MESSAGES_PER_UPDATE - numAfter, 0));
  const query = await read(async (db) => narrowFor(await reading(db, user), request.narrow));
  const window = await fetchWindow(query, await resolveAnchor(user, query, request.anchor), { numBefore, numAfter, includeAnchor: request.includeAnchor });
  const result = await changeFlags(user, window.ids, operation, flag);
  return {
    processed_count: window.ids.length,
    updated_count: result.changed.length,
    first_processed_id: window.ids[0] ?? null,
    last_processed_id: window.ids.at(-1) ?? null,
    found_oldest: window.found_oldest,
    found_newest: window.found_newest,
    ...(flag === "read" && operation === "remove" ? { ignored_because_not_subscribed_channels: result.ignoredChannels } : {}),
  };
}
