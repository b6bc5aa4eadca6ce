import { type DeflatedHead, deflateHead, gzipWithTail } from "../http/gzipSplice";
import { openJsonOf, type StoredEvent } from "./queue";

/**
 * The JSON of GET /events answers. A message goes to every subscriber's queue as the very same
 * stored event (the same object, with one registry-wide ID), so after a send most queues hold
 * exactly the same events: their list is written out once and reused by every answer that
 * carries it, and each distinct event is serialized once whatever list it is in.
 */

function storedEventJson({ id, event }: StoredEvent): string {
  // Events carry no `id` of their own; should one ever, the queue's ID must win, as it always has.
  if (Object.hasOwn(event, "id")) return JSON.stringify({ ...event, id });
  return `${openJsonOf(event)},"id":${id}}`;
}

/** The event lists most recently written out, the latest used first. */
const RECENT_LISTS = 4;
/**
 * Lists sent to many queues are a few fresh events; a longer one is some client's backlog, kept
 * by nobody else, and would stay in memory until four newer lists pushed it out.
 */
const MAX_KEPT_LIST_CHARS = 1024 * 1024;

interface WrittenList {
  events: StoredEvent[];
  json: string;
  /** Answers that carried it so far. */
  uses: number;
  /** The answer up to the end of the list, compressed; made on the list's second use. */
  deflated?: DeflatedHead;
}

let recentLists: WrittenList[] = [];

const sameEvents = (a: StoredEvent[], b: StoredEvent[]) => a.length === b.length && a.every((stored, i) => stored === b[i]);

function writtenList(events: StoredEvent[]): WrittenList {
  const found = recentLists.findIndex((recent) => sameEvents(recent.events, events));
  if (found >= 0) {
    const recent = recentLists[found];
    recent.uses++;
    if (found > 0) recentLists = [recent, ...recentLists.filter((_, i) => i !== found)];
    return recent;
  }
  const written = { events: events.slice(), json: events.map(storedEventJson).join(","), uses: 1 };
  if (written.json.length <= MAX_KEPT_LIST_CHARS) recentLists = [written, ...recentLists.slice(0, RECENT_LISTS - 1)];
  return written;
}

const ANSWER_HEAD = '{"result":"success","msg":"","events":[';

/** What follows the list: the extra fields, and the end of the envelope. */
function answerTail(extra: Record<string, unknown>): string {
  const rest = JSON.stringify(extra).slice(1);
  return rest === "}" ? "]}" : `],${rest}`;
}

/** The event objects as a client receives them, each with its ID. */
export const withIds = (events: StoredEvent[]) => events.map(({ id, event }) => ({ ...event, id }));

/** The success envelope of GET /events as JSON, with `extra` fields after the events. */
const jsonAnswer = (list: WrittenList | undefined, extra: Record<string, unknown>) => `${ANSWER_HEAD}${list?.json ?? ""}${answerTail(extra)}`;

/**
 * The answer as JSON, or gzip-compressed when the client accepts that and it pays: when the
 * list it carries was already sent to another queue, so one compression serves many answers
 * (a message to a channel of 50 goes out as 50 answers of the same events).
 */
export function eventsAnswer(events: StoredEvent[], extra: Record<string, unknown>, gzipAccepted: boolean): string | Uint8Array<ArrayBuffer> {
  const list = events.length === 0 ? undefined : writtenList(events);
  if (!gzipAccepted || list === undefined || list.uses < 2) return jsonAnswer(list, extra);
  list.deflated ??= deflateHead(`${ANSWER_HEAD}${list.json}`);
  return gzipWithTail(list.deflated, answerTail(extra)) ?? jsonAnswer(list, extra);
}
