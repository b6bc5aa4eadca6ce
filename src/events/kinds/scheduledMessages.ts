import type { ApiScheduledMessage } from "../../shapes/scheduledMessages";

/** Scheduled-message changes, to the sender's clients only (reference: scheduled_messages add, update, remove). */
export type ScheduledMessagesEvent =
  | { type: "scheduled_messages"; op: "add"; scheduled_messages: ApiScheduledMessage[] }
  | { type: "scheduled_messages"; op: "update"; scheduled_message: ApiScheduledMessage }
  | { type: "scheduled_messages"; op: "remove"; scheduled_message_id: number };
