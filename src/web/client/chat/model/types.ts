/**
 * The shapes the chat reads from the API (register, GET /messages, events): only the fields it
 * uses. The server is the judge of what they hold; these describe what comes over the wire.
 */

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji" | string;
  user_id: number;
}

export interface DisplayRecipient {
  id: number;
  email: string;
  full_name: string;
}

export interface Message {
  id: number;
  type: "stream" | "private";
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url: string | null;
  /** Rendered HTML, as the server rendered it. */
  content: string;
  /** The channel's name for a channel message; the people for a direct message. */
  display_recipient: string | DisplayRecipient[];
  stream_id?: number;
  subject: string;
  timestamp: number;
  last_edit_timestamp?: number;
  reactions: Reaction[];
  flags: string[];
  is_me_message?: boolean;
}

export interface User {
  user_id: number;
  email: string;
  full_name: string;
  avatar_url: string | null;
  is_active: boolean;
  is_bot: boolean;
  role: number;
  timezone?: string;
}

export interface Channel {
  stream_id: number;
  name: string;
  description: string;
  rendered_description?: string;
  invite_only: boolean;
  is_archived?: boolean;
}

export interface Subscription extends Channel {
  color: string;
  pin_to_top: boolean;
  is_muted: boolean;
  in_home_view?: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
}

export interface UnreadMsgs {
  streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }>;
  pms: Array<{ other_user_id: number; unread_message_ids: number[] }>;
  huddles: Array<{ user_ids_string: string; unread_message_ids: number[] }>;
  mentions: number[];
}

export interface UserTopic {
  stream_id: number;
  topic_name: string;
  visibility_policy: number;
}

export interface UserStatus {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
}

/** The person's settings the chat honours (register's user_settings). */
export interface UserSettings {
  enter_sends: boolean;
  color_scheme: number;
  twenty_four_hour_time: boolean;
  display_emoji_reaction_users: boolean;
  send_private_typing_notifications: boolean;
  send_stream_typing_notifications: boolean;
  receives_typing_notifications: boolean;
  enable_desktop_notifications: boolean;
  enable_stream_desktop_notifications: boolean;
  pm_content_in_desktop_notifications: boolean;
  starred_message_counts: boolean;
  web_mark_read_on_scroll_policy: number;
  emojiset?: string;
  [name: string]: unknown;
}

/** What the chat keeps of POST /register's answer. */
export interface Snapshot {
  queue_id: string;
  last_event_id: number;
  user_id: number;
  full_name: string;
  email: string;
  is_admin: boolean;
  is_owner: boolean;
  is_moderator: boolean;
  is_guest: boolean;
  avatar_url: string | null;
  realm_name: string;
  realm_url?: string;
  realm_uri?: string;
  realm_empty_topic_display_name?: string;
  realm_allow_message_editing: boolean;
  realm_message_content_edit_limit_seconds: number | null;
  realm_message_content_delete_limit_seconds: number | null;
  realm_mandatory_topics?: boolean;
  realm_topics_policy?: string;
  realm_users: User[];
  cross_realm_bots?: User[];
  subscriptions: Subscription[];
  unsubscribed: Subscription[];
  never_subscribed: Channel[];
  unread_msgs: UnreadMsgs;
  recent_private_conversations: Array<{ max_message_id: number; user_ids: number[] }>;
  user_topics: UserTopic[];
  user_settings: UserSettings;
  user_status: Record<string, UserStatus>;
  realm_emoji: Record<string, RealmEmoji>;
  muted_users: Array<{ id: number }>;
  presences: Record<string, { active_timestamp?: number; idle_timestamp?: number }>;
  server_emoji_data_url?: string;
  max_message_id: number;
  max_message_length: number;
  max_topic_length: number;
  server_typing_started_wait_period_milliseconds: number;
  server_typing_stopped_wait_period_milliseconds: number;
  server_typing_started_expiry_period_milliseconds: number;
  event_queue_longpoll_timeout_seconds?: number;
  server_presence_ping_interval_seconds?: number;
  server_presence_offline_threshold_seconds?: number;
}

/** An event from GET /events: `id` and `type`, and fields that depend on the type. */
export interface ServerEvent {
  id: number;
  type: string;
  op?: string;
  [field: string]: unknown;
}
