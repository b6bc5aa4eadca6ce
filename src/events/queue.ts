import type { DeliveredEvent } from "./filters";
import type { QueueSpec } from "./spec";

export interface StoredEvent {
  readonly id: number;
  readonly event: DeliveredEvent;
}

// An event's JSON without its closing brace, so its ID can be appended (events/answer.ts writes
// answers from it, and a queue counts what it holds by its length). Kept on the event itself,
// under a symbol that JSON.stringify and object spread both pass over: a WeakMap of every
// queued event made each garbage collection walk its entries.
const OPEN_JSON = Symbol("open JSON");

export function openJsonOf(event: object): string {
  const memo = (event as { [OPEN_JSON]?: string })[OPEN_JSON];
  if (memo !== undefined) return memo;
  const open = JSON.stringify(event).slice(0, -1);
  if (Object.isExtensible(event)) Object.defineProperty(event, OPEN_JSON, { value: open });
  return open;
}

const charsOf = (stored: StoredEvent) => openJsonOf(stored.event).length;

/** A parked long-poll: settled with events, or with null when the queue is gone. */
export interface Waiter {
  settle(events: StoredEvent[] | null): void;
}

/**
 * One client's queue. Events come with increasing IDs, given by the registry: one counter for
 * all queues, so the same event has the same ID everywhere (the reference promises increasing
 * IDs, not consecutive ones). They stay until the client acknowledges them by passing a later
 * last_event_id, so a lost response loses nothing. Only the registry touches this class.
 */
export class EventQueue {
  events: StoredEvent[] = [];
  /**
   * Characters of JSON the events held make. With their number, it bounds what a client that
   * does not take its events (or one of a hostile member, who makes each event huge) holds.
   */
  heldChars = 0;
  waiter: Waiter | null = null;
  /** How long it may sit unused before it is collected; set by the registry when it adds the queue. */
  timeoutMs = 0;

  constructor(
    readonly id: string,
    readonly userId: number,
    readonly spec: QueueSpec,
    /** Date.now() of the last fetch start or end: what garbage collection measures idleness from. */
    public lastActive: number,
  ) {}

  /** Stored events may be shared with other queues, so they are never changed. */
  push(stored: StoredEvent) {
    this.events.push(stored);
    this.heldChars += charsOf(stored);
  }

  /** What a saved queue held, at a start after a graceful restart (events/persistence.ts). */
  restore(events: StoredEvent[]) {
    this.events = events;
    this.heldChars = events.reduce((sum, stored) => sum + charsOf(stored), 0);
  }

  /** Drops everything up to and including lastEventId. */
  acknowledge(lastEventId: number) {
    const firstKept = this.events.findIndex((stored) => stored.id > lastEventId);
    const dropped = firstKept === -1 ? this.events.length : firstKept;
    for (let i = 0; i < dropped; i++) this.heldChars -= charsOf(this.events[i]);
    this.events = this.events.slice(dropped);
  }

  /** What a GET /events answer carries; events/answer.ts writes them out with their IDs. */
  contents(): StoredEvent[] {
    return this.events.slice();
  }

  isIdle(now: number, timeoutMs: number): boolean {
    return this.waiter === null && now - this.lastActive > timeoutMs;
  }
}
