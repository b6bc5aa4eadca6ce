import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { log } from "../log";
import { EventQueue, type StoredEvent } from "./queue";
import type { QueueSpec } from "./spec";

/**
 * Queues across a graceful restart, as the reference server does: written on shutdown, read
 * and deleted at the next start. After a crash there is no file, the queues are gone, and
 * clients re-register when they get BAD_EVENT_QUEUE_ID.
 *
 * A message reaches every subscriber's queue as one shared stored event, so the file holds
 * each distinct stored event once and queues list them by position in that table: its size
 * and the time to write it follow the distinct events, not queues x events (version 1 wrote
 * every queue's events in full: 543 MB for 1,000 queues and 100 messages of 5 KB).
 *
 * Version 2, one JSON document written piece by piece:
 *   {"version":2,"nextEventId":N,"events":[{"id":..,"event":{..}},...],
 *    "queues":[{"id":..,"userId":..,"spec":{..},"idleMs":..,"events":[0,3,...]},...]}
 * Positions, not event IDs: queues given differently shaped copies of one event (each
 * user's own flags) hold different stored events with the same ID.
 */

export const QUEUES_FILE = "event_queues.json";
const FORMAT_VERSION = 2;

interface SavedQueueHead {
  id: string;
  userId: number;
  spec: QueueSpec;
  /** Milliseconds idle at shutdown; downtime does not count against a queue. */
  idleMs: number;
}

interface SavedQueueV2 extends SavedQueueHead {
  /** Positions in the file's events table. */
  events: number[];
}

interface SavedQueuesV2 {
  version: 2;
  /** The registry's next event ID (one counter for all queues). */
  nextEventId: number;
  events: StoredEvent[];
  queues: SavedQueueV2[];
}

/** The previous release's format: each queue with its events in full. */
interface SavedQueuesV1 {
  version: 1;
  queues: Array<SavedQueueHead & { nextEventId: number; events: StoredEvent[] }>;
}

/** Text is gathered up to this many characters and then written: the file is never whole in memory. */
const WRITE_CHUNK_CHARS = 1 << 20;

class ChunkedWriter {
  private pieces: string[] = [];
  private chars = 0;

  constructor(private readonly fd: number) {}

  write(text: string) {
    this.pieces.push(text);
    this.chars += text.length;
    if (this.chars >= WRITE_CHUNK_CHARS) this.flush();
  }

  flush() {
    if (this.pieces.length === 0) return;
    const bytes = Buffer.from(this.pieces.join(""), "utf8");
    this.pieces = [];
    this.chars = 0;
    for (let written = 0; written < bytes.length; ) written += writeSync(this.fd, bytes, written, bytes.length - written);
  }
}

/** Written to a temporary file and renamed, so a crash mid-write leaves no half file behind. */
export function saveQueues(dataDir: string, queues: EventQueue[], now: number, nextEventId: number) {
  const path = join(dataDir, QUEUES_FILE);
  const started = performance.now();
  let fd: number | undefined;
  try {
    fd = openSync(`${path}.tmp`, "w");
    const out = new ChunkedWriter(fd);
    out.write(`{"version":${FORMAT_VERSION},"nextEventId":${nextEventId},"events":[`);
    // Each distinct stored event once, in the order first met; its position is what queues refer to.
    const positions = new Map<StoredEvent, number>();
    for (const queue of queues) {
      for (const stored of queue.events) {
        if (positions.has(stored)) continue;
        out.write(`${positions.size === 0 ? "" : ","}${JSON.stringify({ id: stored.id, event: stored.event })}`);
        positions.set(stored, positions.size);
      }
    }
    out.write(`],"queues":[`);
    queues.forEach((queue, i) => {
      const head = JSON.stringify({ id: queue.id, userId: queue.userId, spec: queue.spec, idleMs: Math.max(0, now - queue.lastActive) });
      const refs = queue.events.map((stored) => positions.get(stored)).join(",");
      out.write(`${i === 0 ? "" : ","}${head.slice(0, -1)},"events":[${refs}]}`);
    });
    out.write("]}");
    out.flush();
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(`${path}.tmp`, path);
    log.info(`Saved ${queues.length} event queues (${positions.size} distinct events) for the next start in ${Math.round(performance.now() - started)} ms`);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(`${path}.tmp`, { force: true });
    log.error(`Could not save event queues: ${(error as Error).message}; clients will re-register`);
  }
}

export interface RestoredQueues {
  queues: EventQueue[];
  /** The lowest event ID that none of their clients can have seen. */
  nextEventId: number;
}

const NOTHING: RestoredQueues = { queues: [], nextEventId: 0 };

/** The queues saved by the last graceful shutdown, if any; the file is consumed. */
export function loadQueues(dataDir: string, now: number): RestoredQueues {
  const path = join(dataDir, QUEUES_FILE);
  if (!existsSync(path)) return NOTHING;
  let saved: SavedQueuesV1 | SavedQueuesV2 | undefined;
  try {
    saved = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    log.warn(`Ignoring unreadable ${QUEUES_FILE}: ${(error as Error).message}`);
  }
  // Deleted even when unreadable: a queue file must never be replayed by a later start.
  rmSync(path, { force: true });
  if (saved === undefined) return NOTHING;
  const restored = saved.version === 2 ? fromVersion2(saved, now) : saved.version === 1 ? fromVersion1(saved, now) : undefined;
  if (!restored) {
    log.warn(`Ignoring ${QUEUES_FILE}: not a queue file this version of Parley reads`);
    return NOTHING;
  }
  log.info(`Restored ${restored.queues.length} event queues`);
  return restored;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const isStoredEvent = (value: unknown): value is StoredEvent => isObject(value) && Number.isSafeInteger(value.id) && isObject(value.event) && typeof value.event.type === "string";

function isQueueHead(value: unknown): value is SavedQueueHead & { events: unknown } {
  return isObject(value) && typeof value.id === "string" && Number.isSafeInteger(value.userId) && isObject(value.spec) && isObject(value.spec.capabilities) && Number.isFinite(value.idleMs) && Array.isArray(value.events);
}

/** A saved idle_queue_timeout that is not a positive number of seconds falls back to the server's default. */
function restoredSpec(spec: QueueSpec): QueueSpec {
  const timeout = spec.idleTimeoutSeconds;
  if (timeout === undefined || (typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0)) return spec;
  const { idleTimeoutSeconds: _dropped, ...rest } = spec;
  return rest;
}

const restoredQueue = (entry: SavedQueueHead, now: number) => new EventQueue(entry.id, entry.userId, restoredSpec(entry.spec), now - Math.max(0, entry.idleMs));

/** The highest of `floor` and one past every event ID; a loop, since a queue may hold more events than a call takes arguments. */
function pastEveryId(floor: number, queues: EventQueue[]): number {
  let next = floor;
  for (const queue of queues) for (const stored of queue.events) if (stored.id >= next) next = stored.id + 1;
  return next;
}

/** The table's events at these positions, or undefined if any position is not in it. */
function eventsAt(table: Array<StoredEvent | undefined>, positions: unknown[]): StoredEvent[] | undefined {
  const events: StoredEvent[] = [];
  for (const position of positions) {
    const stored = Number.isInteger(position) ? table[position as number] : undefined;
    if (!stored) return undefined;
    events.push(stored);
  }
  return events;
}

function fromVersion2(saved: SavedQueuesV2, now: number): RestoredQueues | undefined {
  if (!Array.isArray(saved.events) || !Array.isArray(saved.queues)) return undefined;
  // One object per saved event, so queues that shared an event before the restart share it
  // again, and answers carrying it are still written once for all (events/answer.ts).
  const table = saved.events.map((entry) => (isStoredEvent(entry) ? ({ id: entry.id, event: entry.event } as StoredEvent) : undefined));
  const queues: EventQueue[] = [];
  let skipped = 0;
  for (const entry of saved.queues) {
    const events = isQueueHead(entry) ? eventsAt(table, entry.events as unknown[]) : undefined;
    if (!events) {
      skipped++;
      continue;
    }
    const queue = restoredQueue(entry as SavedQueueHead, now);
    queue.restore(events);
    queues.push(queue);
  }
  if (skipped > 0) log.warn(`${QUEUES_FILE}: skipped ${skipped} damaged queue entries; their clients will re-register`);
  return { queues, nextEventId: pastEveryId(Number.isSafeInteger(saved.nextEventId) ? saved.nextEventId : 0, queues) };
}

/**
 * The previous release's file. Its queues hold copies, so events are shared again where they
 * were shared before: same ID and same content is the same stored event.
 */
function fromVersion1(saved: SavedQueuesV1, now: number): RestoredQueues | undefined {
  if (!Array.isArray(saved.queues)) return undefined;
  const shared = new Map<string, StoredEvent>();
  const queues: EventQueue[] = [];
  let nextEventId = 0;
  for (const entry of saved.queues) {
    if (!isQueueHead(entry) || !(entry.events as unknown[]).every(isStoredEvent)) continue;
    const queue = restoredQueue(entry, now);
    queue.restore(
      (entry.events as StoredEvent[]).map((stored) => {
        const key = `${stored.id} ${JSON.stringify(stored.event)}`;
        let same = shared.get(key);
        if (!same) shared.set(key, (same = { id: stored.id, event: stored.event }));
        return same;
      }),
    );
    if (Number.isSafeInteger(entry.nextEventId) && entry.nextEventId > nextEventId) nextEventId = entry.nextEventId;
    queues.push(queue);
  }
  return { queues, nextEventId: pastEveryId(nextEventId, queues) };
}
