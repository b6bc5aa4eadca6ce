import type { EventQueue } from "./queue";

/**
 * Every registered queue in the order it was last active, so that the queue to drop when the
 * server holds too many, and the queues idle for too long, are found without scanning all of
 * them. Two insertion-ordered sets: moving a queue to the end is a delete and an add, O(1).
 *
 * The order follows the calls, which follow Date.now() as lastActive does; should the clock
 * step back, a queue is at worst dropped a little out of turn or collected one sweep late.
 */
export class ActivityOrder {
  /** Queues with no parked long-poll, the least recently active first. */
  private readonly idle = new Set<EventQueue>();
  /** Queues with a parked long-poll, the one parked longest first. */
  private readonly polling = new Set<EventQueue>();

  /** The queue was active just now and has no long-poll parked on it. */
  touched(queue: EventQueue) {
    this.polling.delete(queue);
    this.idle.delete(queue);
    this.idle.add(queue);
  }

  /** A long-poll was just parked on the queue: it is in use, so it goes last. */
  parked(queue: EventQueue) {
    this.idle.delete(queue);
    this.polling.delete(queue);
    this.polling.add(queue);
  }

  removed(queue: EventQueue) {
    this.idle.delete(queue);
    this.polling.delete(queue);
  }

  /**
   * The queue to drop when one must go: the longest idle one; only when every queue has a
   * long-poll parked, the one that has waited longest (its client is the least recently heard).
   */
  victim(): EventQueue | undefined {
    for (const queue of this.idle) return queue;
    for (const queue of this.polling) return queue;
    return undefined;
  }

  /** Queues without a parked long-poll, the longest idle first. */
  idleQueues(): Iterable<EventQueue> {
    return this.idle;
  }
}

/** Of one user's queues (a handful), the one to drop: longest idle, preferring any without a long-poll. */
export function longestIdle(queues: Iterable<EventQueue>): EventQueue | undefined {
  let best: EventQueue | undefined;
  for (const queue of queues) {
    if (best === undefined) best = queue;
    else if ((queue.waiter === null) !== (best.waiter === null)) {
      if (queue.waiter === null) best = queue;
    } else if (queue.lastActive < best.lastActive) best = queue;
  }
  return best;
}
