/**
 * The TypeScript types of the tables' JSON and enum-like text columns (`$type<...>()`), shared
 * by both dialects' table files (./sqlite/, ./postgres/) and by the db/ modules that read and
 * write them, which re-export them. A leaf: it imports nothing, so the table files can use it
 * without an import circle through the query modules.
 */

export type DraftType = "" | "stream" | "private";

export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_stream?: number;
  stream?: number;
  prev_topic?: string;
  topic?: string;
}

/**
 * Invitations (spec 2.10, 4.8, 4.12): e-mail invitations, usable once by one address, and
 * reusable links, usable by anyone until revoked or expired. One table, one ID space, so an ID
 * names one invitation whatever its kind (the API also tells the kind by is_multiuse).
 *
 * A row stays after it stops being usable, with its status saying why, so that a link that
 * expired or was revoked can say so rather than "not found".
 */
export type InviteStatus = "pending" | "accepted" | "revoked" | "expired";

/** The outbox item of an invitation e-mail (db/outbox.ts), captured at invitation time. */
export interface InvitationEmailPayload {
  invite_id: number;
  to: string;
  inviter_name: string;
  realm_name: string;
  realm_url: string;
  link: string;
  /** UNIX seconds; null: the link never expires. */
  expires_at: number | null;
}

/** What the outbox keeps for a reset e-mail; the link is checked again before it is sent. */
export interface PasswordResetEmailPayload {
  reset_id: number;
  to: string;
  full_name: string;
  /** The administrator who asked for it; null when the person asked themselves. */
  requested_by: string | null;
  realm_name: string;
  realm_url: string;
  link: string;
  /** UNIX seconds. */
  expires_at: number;
}

/** Everything the outbox carries, one kind per variant, so the sender can switch on `kind`. */
export type OutboxItem = {
  kind: "account_deactivated_email";
  payload: {
    user_id: number;
    /** Captured now: the address may change before the mail goes out. */
    to: string;
    full_name: string;
    realm_name: string;
    realm_url: string;
    /** The administrator's words for the e-mail; null when they wrote none. */
    comment: string | null;
  };
}
  | { kind: "outgoing_webhook"; payload: OutgoingWebhookPayload }
  | { kind: "invitation_email"; payload: InvitationEmailPayload }
  | { kind: "password_reset_email"; payload: PasswordResetEmailPayload }
  | { kind: "message_notifications"; payload: MessageNotificationsPayload }
  | { kind: "missed_message_email"; payload: MissedMessageEmailPayload }
  | { kind: "web_push"; payload: WebPushPayload };

/** A message some recipients may hear of while away; who, and how, is decided at delivery (actions/messageNotifications.ts). */
export interface MessageNotificationsPayload {
  message_id: number;
  /** The recipients who might (the sender left out). */
  user_ids: number[];
}

/** A missed-message e-mail, written when its messages were found still unread. */
export interface MissedMessageEmailPayload {
  user_id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one-click unsubscribe URL (RFC 8058), also in the text. */
  unsubscribe_url: string;
}

/**
 * One push to subscriptions at one push service: the JSON the service worker gets, encrypted
 * for each at delivery. Those a try could not reach go on in an item of their own.
 */
export interface WebPushPayload {
  subscription_ids: number[];
  /** Tries made before this item (of the item it continues): the give-up count goes on. */
  earlier_tries?: number;
  /** The JSON text delivered (service worker contract: docs/API.md). */
  data: string;
  /** RFC 8030: "high" for direct messages and mentions, "normal" otherwise. */
  urgency: "high" | "normal";
  /** Seconds the push service keeps it while the device is away. */
  ttl: number;
}

/**
 * A message that triggered an outgoing-webhook bot (spec 4.20), captured in the send's
 * transaction; the bot's URL and token are read at delivery, so a changed URL is used at once.
 */
export interface OutgoingWebhookPayload {
  bot_id: number;
  trigger: "mention" | "direct_message";
  /** The message as the bot sees it, in the format of spec 2.3 (built by shapes/). */
  message: { id: number; content: string; type: "stream" | "private"; [field: string]: unknown };
  /** Where the bot's reply goes: the same conversation. */
  reply_to: { type: "stream"; stream_id: number; topic: string } | { type: "private"; user_ids: number[] };
}

export type PushDeviceKind = "apns" | "fcm";

export type ScheduledMessageType = "stream" | "private";
