import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { log } from "../log";
import { EventQueue, type StoredEvent } from "./queue";
import type { QueueSpec } from "./spec";

/**
 * Queues across a graceful restart, as the reference server does: written on shutdown, read
 * and deleted at the next start. After a crash there is no file, the queues are gone, and
 * clients re-register when they get BAD_EVENT_QUEUE_ID.
 */

export const QUEUES_FILE = "event_queues.json";
const FORMAT_VERSION = 1;

interface SavedQueue {
  id: string;
  userId: number;
  spec: QueueSpec;
  /** The registry's next event ID (one counter for all queues; once kept per queue). */
  nextEventId: number;
  /** Milliseconds idle at shutdown; downtime does not count against a queue. */
  idleMs: number;
  events: StoredEvent[];
}

interface SavedQueues {
  version: number;
  queues: SavedQueue[];
}

/** Written to a temporary file and renamed, so a crash mid-write leaves no half file behind. */
export function saveQueues(dataDir: string, queues: EventQueue[], now: number, nextEventId: number) {
  const saved: SavedQueues = {
    version: FORMAT_VERSION,
    queues: queues.map((queue) => ({
      id: queue.id,
      userId: queue.userId,
      spec: queue.spec,
      nextEventId,
      idleMs: Math.max(0, now - queue.lastActive),
      events: queue.events,
    })),
  };
  const path = join(dataDir, QUEUES_FILE);
  try {
    writeFileSync(`${path}.tmp`, JSON.stringify(saved));
    renameSync(`${path}.tmp`, path);
    log.info(`Saved ${queues.length} event queues for the next start`);
  } catch (error) {
    log.error(`Could not save event queues: ${(error as Error).message}; clients will re-register`);
  }
}

/**
 * The queues saved by the last graceful shutdown, if any, and the lowest event ID that none
 * of their clients can have seen; the file is consumed.
 */
export function loadQueues(dataDir: string, now: number): { queues: EventQueue[]; nextEventId: number } {
  const path = join(dataDir, QUEUES_FILE);
  if (!existsSync(path)) return { queues: [], nextEventId: 0 };
  let saved: SavedQueues | undefined;
  try {
    saved = JSON.parse(readFileSync(path, "utf8")) as SavedQueues;
  } catch (error) {
    log.warn(`Ignoring unreadable ${QUEUES_FILE}: ${(error as Error).message}`);
  }
  // Deleted even when unreadable: a queue file must never be replayed by a later start.
  rmSync(path, { force: true });
  if (saved?.version !== FORMAT_VERSION || !Array.isArray(saved.queues)) return { queues: [], nextEventId: 0 };
  let nextEventId = 0;
  const queues = saved.queues.map((entry) => {
    const queue = new EventQueue(entry.id, entry.userId, entry.spec, now - entry.idleMs);
    queue.events = entry.events;
    // A loop, not Math.max(...ids): a full queue holds more events than a call takes arguments.
    nextEventId = Math.max(nextEventId, entry.nextEventId);
    for (const stored of entry.events) nextEventId = Math.max(nextEventId, stored.id + 1);
    return queue;
  });
  log.info(`Restored ${queues.length} event queues`);
  return { queues, nextEventId };
}
