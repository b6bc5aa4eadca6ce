import type { OutboxItem } from "../db/outbox";

/**
 * How each kind of outbox item reaches the outside world. An action queues an item inside its
 * write() (db/outbox.ts enqueueOutbox), so nothing is sent for a change that rolled back and
 * nothing queued is lost in a crash; the outbox job (jobs/) later takes due items in ID order
 * and calls the deliverer of their kind, outside any transaction.
 *
 * A deliverer either returns (delivered: the item is marked sent and never tried again), or
 * throws. RetryLater, or any other error, is a transient failure: the item is tried again with
 * backoff until its kind's attempts run out. GiveUp ends it at once. When an item is given up,
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

export interface Deliverer<K extends OutboxKind> {
  deliver(payload: PayloadOf<K>, attempt: DeliveryAttempt): Promise<void>;
  /** Tries before giving up; the default suits mail (about a day with the default backoff). */
  maxAttempts?: number;
  /**
   * Whether items of this kind can be tried now; while it says no they wait untouched, with no
   * attempt counted (mail while no SMTP server is configured). Default: always.
   */
  ready?(): boolean;
  /** Runs once, after the last try failed or a GiveUp. */
  gaveUp?(payload: PayloadOf<K>, error: string): void;
}

export class RetryLater extends Error {}
export class GiveUp extends Error {}
