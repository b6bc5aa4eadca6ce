import { getRealm } from "../db/realm";
import { dueScheduledMessageIds, findScheduledMessageById, markScheduledMessageDelivered, markScheduledMessageFailed, type ScheduledMessage } from "../db/scheduledMessages";
import { read, write } from "../db/transaction";
import type { Tx } from "../db/types";
import { findUserById, type User } from "../db/users";
import { ApiError } from "../http/errors";
import { log } from "../log";
import { now } from "../model/clock";
import { scheduledMessageToApi } from "../shapes/scheduledMessages";
import { notificationBot } from "./channelAnnouncements";
import { sendMessageInTransaction } from "./sendMessage";

/**
 * Sending scheduled messages when they are due (spec 3: Pending → sent with a new message ID).
 *
 * Exactly once: each message is sent by the same send as POST /messages, in one transaction
 * that first re-reads the row and then marks it delivered, so a crash at any moment leaves it
 * either unsent and still due (sent at the next start) or sent and marked, never both. For
 * the same reason a message listed by two runs is sent once, should runs ever overlap (the job
 * keeps them apart): the later run's transaction finds it marked.
 *
 * A refused delivery (channel archived or gone, sender deactivated, no longer allowed) rolls
 * that transaction back; a second one records `failed` with the reason, tells the sender's
 * clients (scheduled_messages update) and has the notification bot tell the sender, as the
 * reference does. The row stays, so nothing the sender wrote is lost.
 */

/** Messages delivered per run at most; the next run (a second later) goes on. */
const BATCH = 500;

/** Why a delivery is refused before the send is even tried: nobody is left to tell. */
class Deactivated extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Sends every message due by now; answers how many were tried. */
export async function deliverDueScheduledMessages(at: number = now()): Promise<number> {
  const due = await read((db) => dueScheduledMessageIds(db, at, BATCH));
  for (const id of due) await deliverOne(id, at);
  return due.length;
}

const stillDue = (row: ScheduledMessage | undefined, at: number): row is ScheduledMessage => row !== undefined && !row.delivered && !row.failed && row.scheduledTimestamp <= at;

async function deliverOne(id: number, at: number) {
  try {
    await write(async (tx) => {
      const row = await findScheduledMessageById(tx, id);
      // Edited, cancelled or delivered since it was listed.
      if (!stillDue(row, at)) return;
      if ((await getRealm(tx)).deactivated) throw new Deactivated("This organization has been deactivated");
      const sender = await findUserById(tx, row.senderId);
      if (!sender?.isActive) throw new Deactivated("Account is deactivated");
      const sent = await sendMessageInTransaction(tx, sender, {
        type: row.type,
        to: JSON.stringify(row.type === "stream" ? row.to[0] : row.to),
        topic: row.topic,
        content: row.content,
        client: row.client,
        readBySender: row.readBySender,
      });
      await markScheduledMessageDelivered(tx, row.id, sent.id);
      tx.emit({ type: "scheduled_messages", op: "remove", scheduled_message_id: row.id }, [sender.id]);
    });
  } catch (error) {
    await recordFailure(id, at, error);
  }
}

function failureMessage(error: unknown): string {
  if (error instanceof Deactivated) return error.reason;
  if (error instanceof ApiError) return error.message;
  return "Internal server error";
}

async function recordFailure(id: number, at: number, error: unknown) {
  const reason = failureMessage(error);
  if (!(error instanceof ApiError) && !(error instanceof Deactivated)) log.error(`Scheduled message ${id} could not be sent: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  else log.info(`Scheduled message ${id} not sent: ${reason}`);
  await write(async (tx) => {
    if (!stillDue(await findScheduledMessageById(tx, id), at)) return;
    const failed = await markScheduledMessageFailed(tx, id, reason);
    const sender = await findUserById(tx, failed.senderId);
    // As the reference: a deactivated sender or organization has nobody to tell.
    if (!sender?.isActive || error instanceof Deactivated) return;
    tx.emit({ type: "scheduled_messages", op: "update", scheduled_message: scheduledMessageToApi(failed) }, [sender.id]);
    await tellSender(tx, sender, failed, reason);
  });
}

/** The notification bot's direct message, in the reference's words. */
async function tellSender(tx: Tx, sender: User, failed: ScheduledMessage, reason: string) {
  const when = new Date(failed.scheduledTimestamp * 1000).toISOString().replace(/\.000Z$/, "Z");
  const quoted = reason
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
  const content = `The message you scheduled for <time:${when}> was not sent because of the following error:\n\n${quoted}\n\n[View scheduled messages](#scheduled)`;
  await sendMessageInTransaction(tx, await notificationBot(tx), { type: "private", to: JSON.stringify([sender.id]), content, client: "Internal", readBySender: false });
}
