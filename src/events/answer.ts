import type { StoredEvent } from "./queue";

/**
 * The JSON of GET /events answers. One message goes to every subscriber's queue, mostly as the
 * very same event object (filters.ts shares them by format and flags), so each distinct event
 * is serialized once and its text reused in every answer that carries it; serializing each
 * answer whole repeated that work once per queue.
 */

// An event's JSON without its closing brace, so its queue-specific ID can be appended. Kept on
// the event itself, under a symbol that JSON.stringify and object spread both pass over: a
// WeakMap of every queued event made each garbage collection walk its entries.
const OPEN_JSON = Symbol("open JSON");

function openJsonOf(event: object): string {
  const memo = (event as { [OPEN_JSON]?: string })[OPEN_JSON];
  if (memo !== undefined) return memo;
  const open = JSON.stringify(event).slice(0, -1);
  if (Object.isExtensible(event)) Object.defineProperty(event, OPEN_JSON, { value: open });
  return open;
}

/** The event objects as a client receives them, each with its ID in the queue. */
export const withIds = (events: StoredEvent[]) => events.map(({ id, event }) => ({ ...event, id }));

/** The success envelope of GET /events, with `extra` fields after the events. */
export function eventsAnswerJson(events: StoredEvent[], extra: Record<string, unknown>): string {
  const parts: string[] = ['{"result":"success","msg":"","events":['];
  events.forEach(({ id, event }, i) => {
    if (i > 0) parts.push(",");
    // Events carry no `id` of their own; should one ever, the queue's ID must win, as it always has.
    if (Object.hasOwn(event, "id")) parts.push(JSON.stringify({ ...event, id }));
    else parts.push(openJsonOf(event), ',"id":', String(id), "}");
  });
  const rest = JSON.stringify(extra).slice(1);
  parts.push(rest === "}" ? "]}" : `],${rest}`);
  return parts.join("");
}
