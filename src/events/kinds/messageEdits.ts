import type { TopicLink } from "../../render/topicLinks";
import type { ReactionType } from "../../model/emoji";

/** Events of changes to existing messages (reference: get-events, update_message, delete_message, reaction). */

export interface UpdateMessageEvent {
  type: "update_message";
  /** Who edited; null only for rendering-only updates. */
  user_id: number | null;
  rendering_only: boolean;
  message_id: number;
  /** Every message the channel/topic change applies to; always includes message_id. */
  message_ids: number[];
  /** Each queue's copy carries its own user's flags for message_id (DeliveryOptions.flagsByUser). */
  flags: string[];
  edit_timestamp: number;
  /** Channel messages only: the channel before the edit. */
  stream_name?: string;
  stream_id?: number;
  /** Only when messages moved to another channel. */
  new_stream_id?: number;
  /** Only when messages moved (topic and/or channel). */
  propagate_mode?: "change_one" | "change_later" | "change_all";
  orig_subject?: string;
  /** Only when the topic changed. */
  subject?: string;
  topic_links?: TopicLink[];
  /** Only when the content changed. */
  orig_content?: string;
  orig_rendered_content?: string;
  content?: string;
  rendered_content?: string;
  is_me_message?: boolean;
}

/**
 * The bulk form (capability bulk_message_deletion); events/filters.ts turns it into one event
 * per message_id for clients without the capability.
 */
export interface DeleteMessageEvent {
  type: "delete_message";
  message_ids: number[];
  message_type: "stream" | "private";
  /** Channel messages only. */
  stream_id?: number;
  topic?: string;
}

export interface ReactionEvent {
  type: "reaction";
  op: "add" | "remove";
  message_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
  user_id: number;
  /** Deprecated duplicate of user_id that older mobile clients still read. */
  user: { user_id: number; email: string; full_name: string };
}

export type MessageEditEvent = UpdateMessageEvent | DeleteMessageEvent | ReactionEvent;
