import { checkCanDelete } from "../access/messageDeletion";
import { accessMessage, messageAudience } from "../access/messages";
import type { Channel } from "../db/channels";
import { deleteMessageRows, type MessageRow } from "../db/messages";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import type { DeleteMessageEvent } from "../events/kinds/messageEdits";
import { refreshFirstMessageId } from "./firstMessageId";
import { releaseAttachments, removeFilesNoLongerUsed } from "./attachments";
import { attachmentsLinkedTo } from "../db/uploads";

/** Deleting messages for good: one message by its sender or a moderator-like role, or a topic's batch. */

export async function deleteMessage(user: User, messageId: number, now = Math.floor(Date.now() / 1000)) {
  await write(async (tx) => {
    const { message, channel, viewer } = await accessMessage(tx, user, messageId, { modifying: true });
    await checkCanDelete(tx, viewer, message, now);
    await deleteMessages(tx, user, [message], channel);
  });
  await removeFilesNoLongerUsed();
}

/**
 * Deletes messages of one conversation (for a channel, of one topic) and tells everyone who
 * could see them, plus the actor, who may be an administrator outside the channel. Reactions,
 * flags and links to uploads go with the rows (ON DELETE CASCADE); uploads no message links
 * any more go too, their files once the caller has committed (removeFilesNoLongerUsed).
 */
export async function deleteMessages(tx: Tx, actor: User, doomed: MessageRow[], channel: Channel | undefined) {
  if (doomed.length === 0) return;
  const sample = doomed[0];
  const ids = doomed.map((message) => message.id).sort((a, b) => a - b);
  const audience = await messageAudience(tx, channel, doomed);
  const linked = await attachmentsLinkedTo(tx, ids);
  await deleteMessageRows(tx, ids);
  await releaseAttachments(tx, linked);
  const event: DeleteMessageEvent = channel
    ? { type: "delete_message", message_ids: ids, message_type: "stream", stream_id: channel.id, topic: sample.topic }
    : { type: "delete_message", message_ids: ids, message_type: "private" };
  tx.emit(event, [...audience, actor.id]);
  if (channel && channel.firstMessageId !== null && ids.includes(channel.firstMessageId)) await refreshFirstMessageId(tx, channel);
}
