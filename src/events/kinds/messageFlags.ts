/** Personal message flag changes (reference: get-events, type "update_message_flags"). */

/** What a client needs to put a message marked unread back into its unread_msgs. */
export type UnreadMessageDetails =
  | { type: "stream"; stream_id: number; topic: string; mentioned?: true }
  | { type: "private"; user_ids: number[]; mentioned?: true };

export interface MessageFlagsAddEvent {
  type: "update_message_flags";
  op: "add";
  /** Deprecated name of `op`, still sent for older clients. */
  operation: "add";
  flag: string;
  messages: number[];
  all: boolean;
}

export interface MessageFlagsRemoveEvent {
  type: "update_message_flags";
  op: "remove";
  operation: "remove";
  flag: string;
  messages: number[];
  all: false;
  /** Only for the read flag: per message ID, where the now-unread message is. */
  message_details?: Record<string, UnreadMessageDetails>;
}

export type MessageFlagsEvent = MessageFlagsAddEvent | MessageFlagsRemoveEvent;
