import type { OutboxItem } from "../db/outbox";

/**
 * How each kind of outbox item reaches the outside world. An action queues an item inside its
 * write() (db/outbox.ts enqueueOutbox), so nothing is sent for a change that rolled back and
 * nothing queued is lost in a crash; the outbox sender (runner.ts) later hands due items to the
 * deliverer of their kind, outside any transaction, in lanes: items going to the same
 * destination (the route a deliverer gives) share a bound on deliveries at once and a backoff
 * when the destination keeps failing, and one slow or dead destination holds up only its own.
 *
 * A deliverer either returns (delivered: the item is marked sent and never tried again), or
 * throws. RetryLater, or any other error, is a transient failure: the item is tried again with
 * backoff until its kind's attempts run out, and it counts against its destination unless the
 * RetryLater says the destination answered. GiveUp ends it at once. When an item is given up,
 * the kind's gaveUp() may tell someone (in a write of its own), e.g. a webhook bot's owner.
 *
 * Delivery is at least once at the network level (a crash between a send and its "sent" mark
 * repeats it); each deliverer makes a repeat harmless where the far side allows, e.g. with a
 * stable Message-ID for mail.
 */

export type OutboxKind = OutboxItem["kind"];
export type PayloadOf<K extends OutboxKind> = Extract<OutboxItem, { kind: K }>["payload"];

export interface DeliveryAttempt {
  /** The outbox row's ID: stable across retries and restarts. */
  itemId: number;
  /** 1 for the first try. */
  number: number;
  /** When the item was queued (UNIX seconds), e.g. to keep Message-IDs apart between databases. */
  createdAt: number;
}

/** Where an item goes, for the sender's lanes. */
export interface Route {
  /** The destination: items with the same lane share its bound and its backoff. */
  lane: string;
  /** Deliveries of this lane under way at once, at most. */
  limit: number;
  /** Items with the same key go one at a time in ID order (a bot's replies in order). */
  inOrder?: string;
}

export interface Deliverer<K extends OutboxKind> {
  deliver(payload: PayloadOf<K>, attempt: DeliveryAttempt): Promise<void>;
  /** Where the item goes; asked once, when the sender first sees the item. */
  route(payload: PayloadOf<K>): Route | Promise<Route>;
  /** Tries before giving up; the default suits mail (about a day with the default backoff). */
  maxAttempts?: number;
  /**
   * Whether items of this kind can be tried now; while it says no they wait untouched, with no
   * attempt counted (mail while no SMTP server is configured). Default: always.
   */
  ready?(): boolean | Promise<boolean>;
  /** Each delivery is logged at debug level, not info: one line per push of a burst would flood the log. */
  quiet?: boolean;
  /** Runs once, after the last try failed or a GiveUp. */
  gaveUp?(payload: PayloadOf<K>, error: string): void | Promise<void>;
}

/** A transient failure: tried again later. */
export class RetryLater extends Error {
  /** The destination answered (it refused this item for now): its other items need not wait. */
  readonly destinationAnswered: boolean;

  constructor(message: string, options: { destinationAnswered?: boolean } = {}) {
    super(message);
    this.destinationAnswered = options.destinationAnswered ?? false;
  }
}

export class GiveUp extends Error {}
