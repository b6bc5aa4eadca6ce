import { sql } from "drizzle-orm";
import type { Reader } from "../../db/types";
import { listUserTopicsOf } from "../../db/userTopics";
import type { UserStateContext } from "./context";

/**
 * Snapshot sections kept up to date by message and user_topic events: max_message_id,
 * recent_private_conversations and user_topics.
 */

/** How many conversations recent_private_conversations lists at most. */
const RECENT_CONVERSATIONS_LIMIT = 1000;

/**
 * The newest message the user received, as the reference counts it (messages with a row for
 * the user): channel messages sent while they were subscribed (their subscription periods,
 * db/messageState.ts), their direct-message conversations, and what they sent themselves.
 * Joining or leaving a channel changes none of these, as no event tells a client of such a
 * change. Each part is one index range lookup per period or conversation.
 */
export function maxMessageIdState(db: Reader, { viewer }: UserStateContext) {
  // db.all, not db.get: drizzle's get on raw SQL answers a bare array of values.
  const [row] = db.all<{ newest: number | null }>(sql`
    SELECT max(newest) AS newest FROM (
      SELECT (SELECT max(m.id) FROM messages m WHERE m.recipient_id = rc.id AND m.id > p.starts_after AND (p.ends_at IS NULL OR m.id <= p.ends_at)) AS newest
        FROM subscription_periods p JOIN recipients rc ON rc.channel_id = p.channel_id WHERE p.user_id = ${viewer.id}
      UNION ALL SELECT (SELECT max(id) FROM messages WHERE recipient_id = ru.recipient_id) FROM recipient_users ru WHERE ru.user_id = ${viewer.id}
      UNION ALL SELECT max(id) FROM messages WHERE sender_id = ${viewer.id}
    )`);
  return { max_message_id: row?.newest ?? -1 };
}

/** The user's direct-message conversations, newest first, each with its other members. */
export function recentPrivateConversationsState(db: Reader, { viewer }: UserStateContext) {
  const conversations = db.all<{ id: number; newest: number }>(sql`
    SELECT id, newest FROM (
      SELECT recipient_id AS id, (SELECT max(id) FROM messages WHERE recipient_id = ru.recipient_id) AS newest
      FROM recipient_users ru WHERE user_id = ${viewer.id}
    ) WHERE newest IS NOT NULL ORDER BY newest DESC LIMIT ${RECENT_CONVERSATIONS_LIMIT}`);
  const members = new Map<number, number[]>(conversations.map((conversation) => [conversation.id, []]));
  if (conversations.length > 0) {
    const rows = db.all<{ recipient_id: number; user_id: number }>(sql`
      SELECT recipient_id, user_id FROM recipient_users
      WHERE recipient_id IN (SELECT recipient_id FROM recipient_users WHERE user_id = ${viewer.id}) AND user_id != ${viewer.id}
      ORDER BY user_id`);
    for (const row of rows) members.get(row.recipient_id)?.push(row.user_id);
  }
  return {
    recent_private_conversations: conversations.map((conversation) => ({ max_message_id: conversation.newest, user_ids: members.get(conversation.id)! })),
  };
}

/** user_topics; the empty topic under its display name for clients without empty_topic_name. */
export function userTopicsState(db: Reader, { viewer, realm, spec }: UserStateContext) {
  const shown = (topic: string) => (topic === "" && !spec.capabilities.empty_topic_name ? realm.settings.empty_topic_display_name : topic);
  return {
    user_topics: listUserTopicsOf(db, viewer.id).map((row) => ({
      stream_id: row.channelId,
      topic_name: shown(row.topic),
      visibility_policy: row.visibilityPolicy,
      last_updated: row.lastUpdated,
    })),
  };
}
