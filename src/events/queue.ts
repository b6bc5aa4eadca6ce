import type { DeliveredEvent } from "./filters";
import type { QueueSpec } from "./spec";

export interface StoredEvent {
  id: number;
  event: DeliveredEvent;
}

/** A parked long-poll: settled with events, or with null when the queue is gone. */
export interface Waiter {
  settle(events: StoredEvent[] | null): void;
}

/**
 * One client's queue. Events keep increasing IDs from 0 and stay until the client
 * acknowledges them by passing a later last_event_id, so a lost response loses nothing.
 * Only the registry touches this class.
 */
export class EventQueue {
  events: StoredEvent[] = [];
  waiter: Waiter | null = null;

  constructor(
    readonly id: string,
    readonly userId: number,
    readonly spec: QueueSpec,
    /** Date.now() of the last fetch start or end: what garbage collection measures idleness from. */
    public lastActive: number,
    public nextEventId = 0,
  ) {}

  push(event: DeliveredEvent) {
    this.events.push({ id: this.nextEventId++, event });
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
