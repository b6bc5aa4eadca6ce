import { newestReceivedMessageId, otherMembersOfDirectConversations, recentDirectConversations } from "../../db/conversations";
import type { Reader } from "../../db/types";
import { listUserTopicsOf } from "../../db/userTopics";
import type { UserStateContext } from "./context";

/**
 * Snapshot sections kept up to date by message and user_topic events: max_message_id,
 * recent_private_conversations and user_topics.
 */

/** How many conversations recent_private_conversations lists at most. */
const RECENT_CONVERSATIONS_LIMIT = 1000;

/** max_message_id: the newest message the user received (db/conversations.ts says which count). */
export async function maxMessageIdState(db: Reader, { viewer }: UserStateContext) {
  return { max_message_id: (await newestReceivedMessageId(db, viewer.id)) ?? -1 };
}

/** The user's direct-message conversations, newest first, each with its other members. */
export async function recentPrivateConversationsState(db: Reader, { viewer }: UserStateContext) {
  const conversations = await recentDirectConversations(db, viewer.id, RECENT_CONVERSATIONS_LIMIT);
  const members = new Map<number, number[]>(conversations.map((conversation) => [conversation.id, []]));
  if (conversations.length > 0) for (const row of await otherMembersOfDirectConversations(db, viewer.id)) members.get(row.recipientId)?.push(row.userId);
  return {
    recent_private_conversations: conversations.map((conversation) => ({ max_message_id: conversation.newest, user_ids: members.get(conversation.id)! })),
  };
}

/** user_topics; the empty topic under its display name for clients without empty_topic_name. */
export async function userTopicsState(db: Reader, { viewer, realm, spec }: UserStateContext) {
  const shown = (topic: string) => (topic === "" && !spec.capabilities.empty_topic_name ? realm.settings.empty_topic_display_name : topic);
  return {
    user_topics: (await listUserTopicsOf(db, viewer.id)).map((row) => ({
      stream_id: row.channelId,
      topic_name: shown(row.topic),
      visibility_policy: row.visibilityPolicy,
      last_updated: row.lastUpdated,
    })),
  };
}
