import { accessChannel } from "../access/channels";
import { canReadHistory } from "../access/messageReading";
import { getRealm } from "../db/realm";
import { channelTopics } from "../db/topics";
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

export function listChannelTopics(viewer: User, channelId: number, options: { allowEmptyTopicName: boolean }): Promise<ApiTopic[]> {
  return read(async (db) => {
    const { channel, viewer: channelViewer } = await accessChannel(db, viewer, channelId, "content");
    const rows = await channelTopics(db, channel.id, { receivedBy: canReadHistory(channelViewer, channel) ? undefined : viewer.id });
    if (options.allowEmptyTopicName) return rows;
    const shown = (await getRealm(db)).settings.empty_topic_display_name;
    return rows.map((row) => (row.name === "" ? { name: shown, max_id: row.max_id } : row));
  });
}
