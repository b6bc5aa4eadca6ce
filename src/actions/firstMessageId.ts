import { channelAudience } from "../access/channels";
import { type Channel, setFirstMessageId } from "../db/channels";
import { firstMessageIdIn } from "../db/messages";
import type { SendTx } from "../db/types";

/**
 * After messages leave a channel (deleted or moved away) or arrive in it (moved in), its
 * first_message_id may change; everyone who may know the channel is told (spec 6, stream
 * update, from feature level 256).
 */
export async function refreshFirstMessageId(tx: SendTx, channel: Channel) {
  const first = await firstMessageIdIn(tx, channel.id);
  if (first === channel.firstMessageId) return;
  await setFirstMessageId(tx, channel.id, first);
  tx.emit({ type: "stream", op: "update", stream_id: channel.id, name: channel.name, property: "first_message_id", value: first }, await channelAudience(tx, channel));
}
