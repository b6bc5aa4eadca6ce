import { Flag } from "../db/messages";
import { enqueueOutbox } from "../db/outbox";
import type { SendTx } from "../db/types";
import { usersWithWebPush } from "../db/webPushSubscriptions";
import { now } from "../model/clock";

/** Flags that make a channel message concern its recipient: a missed-message e-mail may follow. */
const PERSONAL = Flag.MENTIONED | Flag.GROUP_MENTIONED | Flag.STREAM_WILDCARD_MENTIONED | Flag.TOPIC_WILDCARD_MENTIONED | Flag.HAS_ALERT_WORD;

/**
 * Called by every send, inside its transaction: one outbox item names the recipients who may
 * hear of the message while away: those with a Web Push subscription, and for e-mail every
 * recipient of a direct message and those a channel message mentions or alerts. Who does, and
 * how, is decided when the item is delivered (actions/messageNotifications.ts), off the send
 * path: a send to a channel of a thousand subscribers costs one row here, not a thousand.
 */
export async function queueMessageNotifications(tx: SendTx, message: { id: number; senderId: number; direct: boolean }, recipientIds: readonly number[], bits: ReadonlyMap<number, number>) {
  const subscribed = await usersWithWebPush(tx);
  const userIds = recipientIds.filter((id) => id !== message.senderId && (message.direct || subscribed.has(id) || ((bits.get(id) ?? 0) & PERSONAL) !== 0));
  if (userIds.length === 0) return;
  await enqueueOutbox(tx, { kind: "message_notifications", payload: { message_id: message.id, user_ids: userIds } }, now());
}
