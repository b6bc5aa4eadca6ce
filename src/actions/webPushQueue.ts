import { enqueueOutbox } from "../db/outbox";
import type { SendTx } from "../db/types";
import { usersWithWebPush } from "../db/webPushSubscriptions";
import { now } from "../model/clock";

/**
 * Called by every send, inside its transaction: when some recipients have a Web Push
 * subscription, one outbox item names them. Who is pushed, and with what, is decided when the
 * item is delivered (actions/webPushFanOut.ts), off the send path: a send to a channel of a
 * thousand subscribers costs one row here, not a thousand.
 */
export async function queueWebPushes(tx: SendTx, messageId: number, senderId: number, recipientIds: readonly number[]) {
  const subscribed = await usersWithWebPush(tx);
  if (subscribed.size === 0) return;
  const userIds = recipientIds.filter((id) => id !== senderId && subscribed.has(id));
  if (userIds.length === 0) return;
  await enqueueOutbox(tx, { kind: "web_push_message", payload: { message_id: messageId, user_ids: userIds } }, now());
}
