import type { MessageFields } from "../../shapes/messages";

/** Events of sending a message (reference: get-events, types "message" and "user_topic"). */

/**
 * A new message. `message` is the viewer-independent form (Markdown and HTML both); each queue
 * gets it shaped for its client, with its user's flags, in events/filters.ts.
 */
export interface MessageEvent {
  type: "message";
  message: MessageFields;
  /** Replaced per queue by the user's own flags (DeliveryOptions.flagsByUser). */
  flags: string[];
  /**
   * Internal, never shown to clients: whether the recipients of this copy were shown the
   * sender's real address, so that a client_gravatar client can compute the avatar itself.
   */
  gravatar_computable: boolean;
}

/** A user's visibility policy for a topic changed (here: automatically, by sending). */
export interface UserTopicEvent {
  type: "user_topic";
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: number;
}

export type MessageSendEvent = MessageEvent | UserTopicEvent;
