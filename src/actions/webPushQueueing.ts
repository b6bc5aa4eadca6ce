import { enqueueOutbox } from "../db/outbox";
import { writeUpkeep } from "../db/transaction";
import type { Tx, UpkeepTx } from "../db/types";
import type { WebPushSubscription } from "../db/webPushSubscriptions";

/** Subscriptions per item at most: one try of an item is bounded. */
const MAX_PER_ITEM = 500;

/** The push service a subscription's endpoint belongs to (its origin). */
export function pushServiceOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return endpoint;
  }
}

/**
 * Queues one push to these subscriptions: one web_push item per push service (outbox/webPush.ts
 * delivers it to each subscription), so that a push to a thousand browsers is a few rows.
 * Returns how many subscriptions it goes to.
 */
export async function queueWebPushes(
  tx: Tx | UpkeepTx,
  subscriptions: readonly WebPushSubscription[],
  push: { data: string; urgency: "high" | "normal"; ttl: number; earlierTries?: number },
  now: number,
  notBefore = now,
): Promise<number> {
  const byService = new Map<string, number[]>();
  for (const row of subscriptions) {
    const service = pushServiceOf(row.endpoint);
    (byService.get(service) ?? byService.set(service, []).get(service)!).push(row.id);
  }
  for (const ids of byService.values()) {
    for (let i = 0; i < ids.length; i += MAX_PER_ITEM) {
      const payload = { subscription_ids: ids.slice(i, i + MAX_PER_ITEM), data: push.data, urgency: push.urgency, ttl: push.ttl, ...(push.earlierTries ? { earlier_tries: push.earlierTries } : {}) };
      await enqueueOutbox(tx, { kind: "web_push", payload }, now, notBefore);
    }
  }
  return subscriptions.length;
}

/** The subscriptions a try could not reach, tried again from `notBefore` in an item of their own. */
export const queueWebPushesAgain = (subscriptions: readonly WebPushSubscription[], push: { data: string; urgency: "high" | "normal"; ttl: number; earlierTries: number }, now: number, notBefore: number) =>
  writeUpkeep((tx) => queueWebPushes(tx, subscriptions, push, now, notBefore));
