import type { ApiChannel, ApiSubscription } from "../../shapes/channels";
import type { ApiGroupSettingValue } from "../../shapes/groupSettings";

/** Channel events (reference: get-events, types "stream", "subscription", "default_streams"). */

export interface StreamCreateEvent {
  type: "stream";
  op: "create";
  streams: ApiChannel[];
  /**
   * Internal, never shown to clients: sent because a channel was unarchived, so only queues
   * without the archived_channels capability get it (the others get an is_archived update).
   */
  for_unarchiving?: true;
}

export interface StreamDeleteEvent {
  type: "stream";
  op: "delete";
  /** Deprecated form of stream_ids, still sent for older clients. */
  streams: Array<{ stream_id: number }>;
  stream_ids: number[];
  /** Internal, never shown to clients: the archiving counterpart of for_unarchiving. */
  for_archiving?: true;
}

export interface StreamUpdateEvent {
  type: "stream";
  op: "update";
  stream_id: number;
  /** The name before the change (for a rename, the old name). */
  name: string;
  property: string;
  value: string | number | boolean | null | ApiGroupSettingValue;
  /** Only when property is description. */
  rendered_description?: string;
  /** Only when property is invite_only. */
  history_public_to_subscribers?: boolean;
  is_web_public?: boolean;
}

export interface SubscriptionAddEvent {
  type: "subscription";
  op: "add";
  subscriptions: ApiSubscription[];
  /** Internal: an unarchived channel coming back for clients that had seen it deleted. */
  for_unarchiving?: true;
}

export interface SubscriptionRemoveEvent {
  type: "subscription";
  op: "remove";
  subscriptions: Array<{ stream_id: number; name: string }>;
}

export interface SubscriptionUpdateEvent {
  type: "subscription";
  op: "update";
  stream_id: number;
  property: string;
  value: boolean | string;
}

export interface SubscriptionPeerEvent {
  type: "subscription";
  op: "peer_add" | "peer_remove";
  stream_ids: number[];
  user_ids: number[];
}

export interface DefaultStreamsEvent {
  type: "default_streams";
  default_streams: number[];
}

export type ChannelEvent =
  | StreamCreateEvent
  | StreamDeleteEvent
  | StreamUpdateEvent
  | SubscriptionAddEvent
  | SubscriptionRemoveEvent
  | SubscriptionUpdateEvent
  | SubscriptionPeerEvent
  | DefaultStreamsEvent;
