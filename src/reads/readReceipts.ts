import { accessMessage } from "../access/messages";
import { usersWhoRead } from "../db/messageState";
import { read } from "../db/transaction";
import type { User } from "../db/users";

/**
 * GET /messages/{message_id}/read_receipts: who has read a message the viewer may read,
 * leaving out the sender, people who turned send_read_receipts off, and people muted either
 * way, as the reference does.
 */
export function getReadReceipts(viewer: User, messageId: number): Promise<number[]> {
  return read(async (db) => {
    const { message } = await accessMessage(db, viewer, messageId);
    return (await usersWhoRead(db, message, viewer.id))
      .filter((reader) => reader.id !== message.senderId && reader.sendsReadReceipts)
      .map((reader) => reader.id);
  });
}
