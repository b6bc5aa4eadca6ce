/**
 * What a client asked for when it registered (spec 4.19), as the registry keeps it with the
 * queue. Plain data, so queues can be written to disk and read back across a restart.
 */

export const CLIENT_CAPABILITIES = [
  "notification_settings_null",
  "bulk_message_deletion",
  "user_avatar_url_field_optional",
  "stream_typing_notifications",
  "user_settings_object",
  "linkifier_url_template",
  "user_list_incomplete",
  "include_deactivated_groups",
  "archived_channels",
  "empty_topic_name",
  "simplified_presence_events",
] as const;

export type ClientCapability = (typeof CLIENT_CAPABILITIES)[number];
export type ClientCapabilities = Record<ClientCapability, boolean>;

/** A narrow term as register takes it: [operator, operand]. */
export type EventNarrowTerm = [string, string];

export interface QueueSpec {
  /** null: every type. */
  eventTypes: string[] | null;
  narrow: EventNarrowTerm[];
  allPublicStreams: boolean;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  /** Presence events keyed by user ID in the modern format (for the presence feature). */
  slimPresence: boolean;
  capabilities: ClientCapabilities;
  /**
   * Seconds the queue may sit unused before it is collected, as the client asked with
   * idle_queue_timeout (already within the server's bounds); absent: the server's default
   * (PARLEY_QUEUE_TIMEOUT_SECONDS), as for queues saved before clients could ask.
   */
  idleTimeoutSeconds?: number;
}

/** Capabilities a client did not mention are off, as in the reference. */
export function readCapabilities(sent: Record<string, unknown> = {}): ClientCapabilities {
  return Object.fromEntries(CLIENT_CAPABILITIES.map((name) => [name, sent[name] === true])) as ClientCapabilities;
}
