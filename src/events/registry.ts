/**
 * THE event-queue registry. Nothing outside this module touches queues.
 * (Skeleton: the events issue fills in queues, long-polling, expiry and persistence.)
 */
import type { Addressed } from "./types";

const listeners: Array<(batch: Addressed[]) => void> = [];

/** Called by the transaction helper after COMMIT with everything the transaction emitted. */
export function publish(batch: Addressed[]) {
  for (const listener of listeners) listener(batch);
}
