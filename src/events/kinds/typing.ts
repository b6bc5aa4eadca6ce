/** Who is typing, as the reference shows users in typing events. */
export interface TypingUser {
  user_id: number;
  email: string;
}

interface TypingBase {
  type: "typing";
  op: "start" | "stop";
  sender: TypingUser;
}

/** Channel typing reaches only clients with stream_typing_notifications (events/filters.ts). */
export type TypingEvent =
  | (TypingBase & { message_type: "direct"; recipients: TypingUser[] })
  | (TypingBase & { message_type: "stream"; stream_id: number; topic: string });

export interface TypingEditMessageEvent {
  type: "typing_edit_message";
  op: "start" | "stop";
  sender_id: number;
  message_id: number;
  recipient: { type: "direct"; user_ids: number[] } | { type: "channel"; channel_id: number; topic: string };
}
