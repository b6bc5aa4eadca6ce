import type { DeliveredEvent } from "./filters";
import type { QueueSpec } from "./spec";

export interface StoredEvent {
  readonly id: number;
  readonly event: DeliveredEvent;
}

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
  }

  /** Drops everything up to and including lastEventId. */
  acknowledge(lastEventId: number) {
    const firstKept = this.events.findIndex((stored) => stored.id > lastEventId);
    this.events = firstKept === -1 ? [] : this.events.slice(firstKept);
  }

  /** What a GET /events answer carries; events/answer.ts writes them out with their IDs. */
  contents(): StoredEvent[] {
    return this.events.slice();
  }

  isIdle(now: number, timeoutMs: number): boolean {
    return this.waiter === null && now - this.lastActive > timeoutMs;
  }
}
