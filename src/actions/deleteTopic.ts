import { accessChannel } from "../access/channels";
import { topicMessagesBelow } from "../db/messages";
import { getRealm } from "../db/realm";
import { writeInSlices } from "../db/slices";
import type { User } from "../db/users";
import { topicKeyOf } from "../db/userTopics";
import { administratorRequired } from "../http/errors";
import { NO_TOPIC } from "../messages/content";
import { readableBy } from "../access/messageReading";
import { isAdministrator } from "../model/roles";
import { removeFilesNoLongerUsed } from "./attachments";
import { deleteMessages } from "./deleteMessage";

/**
 * POST /streams/{id}/delete_topic (spec 4.11): the topic's messages go in batches, newest
 * first, each batch its own transaction of a few milliseconds (db/slices.ts), so a huge topic
 * neither holds the event loop for long nor loses its progress. When the time budget runs out
 * the client is told `complete: false` and repeats the call. Between batches the event loop
 * serves other requests.
 */

export interface TopicDeletionLimits {
  budgetMs: number;
  batchSize: number;
}

let limits: TopicDeletionLimits = { budgetMs: 5000, batchSize: 200 };

/** Set once at startup from the configuration (tests shrink both). */
export function configureTopicDeletion(configured: TopicDeletionLimits) {
  limits = { budgetMs: configured.budgetMs, batchSize: Math.max(1, Math.floor(configured.batchSize)) };
}

/** The stored topic a client means: the empty topic's display names mean "" (spec convention 5). */
function topicFromClient(topic: string, emptyTopicDisplayName: string): string {
  return topic === NO_TOPIC || topic === emptyTopicDisplayName ? "" : topic;
}

export async function deleteTopic(user: User, channelId: number, topicName: string): Promise<{ complete: boolean }> {
  if (!isAdministrator(user.role)) throw administratorRequired();
  const deadline = Date.now() + limits.budgetMs;
  // Messages the caller cannot see stay; the cursor steps past them.
  let below = Number.MAX_SAFE_INTEGER;
  try {
    // One batch per transaction, each with its event (the reference's batches).
    return await writeInSlices(async (tx) => {
      // Checked again per batch: the caller's access may change between batches.
      const { channel, viewer } = await accessChannel(tx, user, channelId, "content");
      const topicKey = topicKeyOf(topicFromClient(topicName, (await getRealm(tx)).settings.empty_topic_display_name));
      const batch = await topicMessagesBelow(tx, channel.id, topicKey, below, limits.batchSize);
      if (batch.length > 0) below = batch[batch.length - 1].id;
      // In a channel with protected history an administrator deletes only what they may read.
      await deleteMessages(tx, user, batch.filter(await readableBy(tx, viewer, batch)), channel);
      if (batch.length < limits.batchSize) return { complete: true };
      return Date.now() >= deadline ? { complete: false } : undefined;
    });
  } finally {
    // The uploads only these messages linked go once their rows are gone.
    await removeFilesNoLongerUsed();
  }
}
