import { sql } from "drizzle-orm";
import { accessChannel } from "../access/channels";
import { canReadHistory, receivedSql } from "../access/messageReading";
import { messages } from "../db/messages";
import { getRealm } from "../db/realm";
import { read } from "../db/transaction";
import type { User } from "../db/users";

/**
 * GET /users/me/{stream_id}/topics (reference: get-stream-topics): the topics of a channel the
 * caller has content access to, newest first, each with the ID of its latest message.
 *
 * Where the caller may read the channel's whole history (public history, web-public), every
 * message counts; otherwise (protected history) only the messages they received, as the
 * reference reads them from its per-user message rows. Topics match case-insensitively, so
 * one entry stands for all spellings, named as its newest message spells it.
 */

export interface ApiTopic {
  name: string;
  max_id: number;
}

export function listChannelTopics(viewer: User, channelId: number, options: { allowEmptyTopicName: boolean }): ApiTopic[] {
  return read((db) => {
    const { channel, viewer: channelViewer } = accessChannel(db, viewer, channelId, "content");
    // The whole channel is one range of the (channel_id, topic_key, id) index: a covering scan.
    const visible = canReadHistory(channelViewer, channel) ? sql`` : sql` AND ${receivedSql(viewer.id)}`;
    const rows = db.all<{ name: string; max_id: number }>(sql`
      SELECT m.topic AS name, t.max_id AS max_id
      FROM (SELECT max(${messages.id}) AS max_id FROM ${messages}
            WHERE ${messages.channelId} = ${channel.id}${visible}
            GROUP BY ${messages.topicKey}) t
      JOIN messages m ON m.id = t.max_id
      ORDER BY t.max_id DESC`);
    if (options.allowEmptyTopicName) return rows;
    const shown = getRealm(db).settings.empty_topic_display_name;
    return rows.map((row) => (row.name === "" ? { name: shown, max_id: row.max_id } : row));
  });
}
