import { takePushed } from "../db/flagRows";
import { queueWebPushes } from "./webPushQueueing";
import type { Tx } from "../db/types";
import { hasWebPush, webPushSubscriptionsOf } from "../db/webPushSubscriptions";
import { now } from "../model/clock";

/** How long a push service keeps a withdrawal for a device that is away. */
const WITHDRAWAL_TTL_SECONDS = 24 * 3600;

/**
 * Messages the user just read: those whose notification is shown on their devices (Flag.PUSHED,
 * set when they were pushed) are withdrawn with a "remove" push, which the service worker uses
 * to close them, so a DM read on the laptop stops ringing on the phone. Called inside the write
 * that marks them read, by every way of marking read (actions/messageFlags.ts).
 */
export async function withdrawWebPushes(tx: Tx, userId: number, readIds: number[]) {
  // Inside a write the copy of who has subscriptions would be loaded afresh, every subscription
  // read: one indexed row answers it.
  if (readIds.length === 0 || !(await hasWebPush(tx, userId))) return;
  const pushed = await takePushed(tx, userId, readIds);
  if (pushed.length === 0) return;
  const data = JSON.stringify({ kind: "remove", message_ids: pushed });
  await queueWebPushes(tx, await webPushSubscriptionsOf(tx, userId), { data, urgency: "normal", ttl: WITHDRAWAL_TTL_SECONDS }, now());
}
