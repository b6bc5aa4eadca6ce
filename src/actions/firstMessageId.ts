import { eq, min } from "drizzle-orm";
import { type Channel, updateChannel } from "../db/channels";
import { cachedStateChanged } from "../db/generation";
import { messages } from "../db/messages";
import type { Tx } from "../db/types";
import { channelAudience } from "./channels";

/**
 * After messages leave a channel (deleted or moved away) or arrive in it (moved in), its
 * first_message_id may change; everyone who may know the channel is told (spec 6, stream
 * update, from feature level 256).
 */
export function refreshFirstMessageId(tx: Tx, channel: Channel) {
  const first = tx.select({ id: min(messages.id) }).from(messages).where(eq(messages.channelId, channel.id)).get()?.id ?? null;
  if (first === channel.firstMessageId) return;
  updateChannel(tx, channel.id, { firstMessageId: first });
  cachedStateChanged();
  tx.emit({ type: "stream", op: "update", stream_id: channel.id, name: channel.name, property: "first_message_id", value: first }, channelAudience(tx, channel));
}
