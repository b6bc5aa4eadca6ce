import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { cachedUntilChange } from "./caches";
import type { Reader, Tx } from "./types";
import { webPushSubscriptions } from "./tables";

export type WebPushSubscription = typeof webPushSubscriptions.$inferSelect;

/**
 * Saves a browser's subscription for this user. The endpoint names one browser profile: if
 * another account had it (someone else signed in there before), it is this user's now.
 */
export async function saveWebPushSubscription(tx: Tx, values: { userId: number; endpoint: string; p256dh: string; auth: string; createdAt: number }): Promise<number> {
  const [row] = await tx
    .insert(webPushSubscriptions)
    .values(values)
    .onConflictDoUpdate({ target: webPushSubscriptions.endpoint, set: { userId: values.userId, p256dh: values.p256dh, auth: values.auth } })
    .returning({ id: webPushSubscriptions.id });
  return row.id;
}

/** Removes the user's own subscription with this endpoint; false when they have none. */
export async function deleteWebPushSubscription(tx: Tx, userId: number, endpoint: string): Promise<boolean> {
  const removed = await tx
    .delete(webPushSubscriptions)
    .where(and(eq(webPushSubscriptions.userId, userId), eq(webPushSubscriptions.endpoint, endpoint)))
    .returning({ id: webPushSubscriptions.id });
  return removed.length > 0;
}

/** The push service says these subscriptions are gone (404, 410): forgotten, whoever had them. */
export async function deleteWebPushSubscriptionsByIds(tx: Tx, ids: number[]) {
  if (ids.length > 0) await tx.delete(webPushSubscriptions).where(inArray(webPushSubscriptions.id, ids));
}

export async function webPushSubscriptionsOf(db: Reader, userId: number): Promise<WebPushSubscription[]> {
  return await db.select().from(webPushSubscriptions).where(eq(webPushSubscriptions.userId, userId)).orderBy(asc(webPushSubscriptions.id));
}

export async function webPushSubscriptionsOfUsers(db: Reader, userIds: number[]): Promise<WebPushSubscription[]> {
  if (userIds.length === 0) return [];
  return await db.select().from(webPushSubscriptions).where(inArray(webPushSubscriptions.userId, userIds)).orderBy(asc(webPushSubscriptions.id));
}

/** These subscriptions (those still there), by ID. */
export async function webPushSubscriptionsByIds(db: Reader, ids: number[]): Promise<WebPushSubscription[]> {
  if (ids.length === 0) return [];
  return await db.select().from(webPushSubscriptions).where(inArray(webPushSubscriptions.id, ids)).orderBy(asc(webPushSubscriptions.id));
}

export async function noteWebPushDelivered(tx: Tx, ids: number[], at: number) {
  if (ids.length > 0) await tx.update(webPushSubscriptions).set({ lastDeliveredAt: at }).where(inArray(webPushSubscriptions.id, ids));
}

// Who has a subscription at all, asked by every send (most people have none): kept until a
// write changes it, as the other copies of db/caches.ts are.
const subscribedUsers = cachedUntilChange("webPushUsers", async (db): Promise<ReadonlySet<number>> => {
  const rows = await db.selectDistinct({ userId: webPushSubscriptions.userId }).from(webPushSubscriptions);
  return new Set(rows.map((row) => row.userId));
});

/** Whether the user has a subscription: one indexed row looked at (for writes, where the copy below is not kept). */
export async function hasWebPush(db: Reader, userId: number): Promise<boolean> {
  return (await db.select({ id: webPushSubscriptions.id }).from(webPushSubscriptions).where(eq(webPushSubscriptions.userId, userId)).limit(1)).length > 0;
}

/** The IDs of users with at least one Web Push subscription. */
export const usersWithWebPush = (db: Reader): Promise<ReadonlySet<number>> => subscribedUsers(db);

export const countWebPushSubscriptions = async (db: Reader) => (await db.select({ count: sql<number>`count(*)` }).from(webPushSubscriptions))[0].count;
