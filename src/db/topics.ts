import { and, asc, eq, gt, ne, sql } from "drizzle-orm";
import type { MessageKey } from "./messageState";
import { receivedSql } from "./messageVisibility";
import { sqlRows } from "./rawSql";
import type { Reader } from "./types";
import { messages } from "./tables";

/** A channel's topics, and the messages of one topic. */

/** Where a message is and when it was sent: what checks on a whole topic need. */
export type TopicMessage = MessageKey & { dateSent: number };

/**
 * Up to `limit` messages of a topic after the ID `afterId`, oldest first, leaving out the
 * message `except` and those whose topic is spelled `exceptTopic`. Keys only: a topic can hold
 * tens of thousands of messages.
 */
export async function topicMessageKeys(
  db: Reader,
  channelId: number,
  topicKey: string,
  options: { afterId: number; except?: number; exceptTopic?: string; limit: number },
): Promise<TopicMessage[]> {
  return await db
    .select({ id: messages.id, recipientId: messages.recipientId, channelId: messages.channelId, senderId: messages.senderId, dateSent: messages.dateSent })
    .from(messages)
    .where(
      and(
        eq(messages.channelId, channelId),
        eq(messages.topicKey, topicKey),
        gt(messages.id, options.afterId),
        options.except === undefined ? undefined : ne(messages.id, options.except),
        options.exceptTopic === undefined ? undefined : ne(messages.topic, options.exceptTopic),
      ),
    )
    .orderBy(asc(messages.id))
    .limit(options.limit);
}

/**
 * A channel's topics, newest first, each with the ID of its latest message and named as that
 * message spells it; with `receivedBy`, only the messages that user received count. Topics
 * match case-insensitively, so one entry stands for all spellings.
 */
export async function channelTopics(db: Reader, channelId: number, options: { receivedBy?: number } = {}): Promise<Array<{ name: string; max_id: number }>> {
  // The whole channel is one range of the (channel_id, topic_key, id) index: a covering scan.
  const visible = options.receivedBy === undefined ? sql`` : sql` AND ${receivedSql(options.receivedBy)}`;
  return await sqlRows<{ name: string; max_id: number }>(db, sql`
    SELECT m.topic AS name, t.max_id AS max_id
    FROM (SELECT max(${messages.id}) AS max_id FROM ${messages}
          WHERE ${messages.channelId} = ${channelId}${visible}
          GROUP BY ${messages.topicKey}) t
    JOIN messages m ON m.id = t.max_id
    ORDER BY t.max_id DESC`);
}
