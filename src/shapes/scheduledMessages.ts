import type { ScheduledMessage } from "../db/scheduledMessages";

/** The reference's ScheduledMessage object; `topic` only for channel messages. */
export interface ApiScheduledMessage {
  scheduled_message_id: number;
  type: "stream" | "private";
  /** The channel's ID, or the conversation's user IDs (see directAudience). */
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

/**
 * A direct message's `to` as the reference shows it: a one-on-one conversation names the other
 * person (oneself for a message to oneself), a group conversation everyone, sender included.
 */
function directAudience(participants: number[], senderId: number): number[] {
  if (participants.length > 2) return participants;
  const others = participants.filter((id) => id !== senderId);
  return others.length > 0 ? others : [senderId];
}

export function scheduledMessageToApi(row: ScheduledMessage): ApiScheduledMessage {
  const common = { content: row.content, rendered_content: row.renderedContent, scheduled_delivery_timestamp: row.scheduledTimestamp, failed: row.failed };
  if (row.type === "stream") return { scheduled_message_id: row.id, to: row.to[0], type: "stream", topic: row.topic, ...common };
  return { scheduled_message_id: row.id, to: directAudience(row.to, row.senderId), type: "private", ...common };
}
