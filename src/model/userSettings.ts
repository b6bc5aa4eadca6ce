/**
 * Every per-user setting of spec 2.11 (and the few more the reference's PATCH /settings
 * takes), with its default and allowed values. New users start from the organization's
 * defaults, which start from these.
 */
type SettingSpec =
  | { kind: "bool"; default: boolean }
  | { kind: "int"; default: number; values?: readonly number[]; min?: number; max?: number }
  | { kind: "string"; default: string; values?: readonly string[] };

const bool = (value: boolean): SettingSpec => ({ kind: "bool", default: value });
const oneOf = (value: number, values: readonly number[]): SettingSpec => ({ kind: "int", default: value, values });
const range = (value: number, min: number, max: number): SettingSpec => ({ kind: "int", default: value, min, max });
const word = (value: string, values?: readonly string[]): SettingSpec => ({ kind: "string", default: value, values });
const FOLLOW_POLICIES = [1, 2, 3, 4] as const;

export const USER_SETTINGS = {
  starred_message_counts: bool(true),
  receives_typing_notifications: bool(true),
  web_suggest_update_timezone: bool(true),
  fluid_layout_width: bool(false),
  high_contrast_mode: bool(false),
  enable_drafts_synchronization: bool(true),
  translate_emoticons: bool(true),
  display_emoji_reaction_users: bool(true),
  web_escape_navigates_to_home_view: bool(true),
  left_side_userlist: bool(false),
  hide_ai_features: bool(false),
  enable_stream_desktop_notifications: bool(false),
  enable_stream_email_notifications: bool(false),
  enable_stream_push_notifications: bool(false),
  enable_stream_audible_notifications: bool(false),
  enable_desktop_notifications: bool(true),
  enable_sounds: bool(true),
  enable_followed_topic_desktop_notifications: bool(true),
  enable_followed_topic_email_notifications: bool(true),
  enable_followed_topic_push_notifications: bool(true),
  enable_followed_topic_audible_notifications: bool(true),
  enable_offline_email_notifications: bool(true),
  enable_offline_push_notifications: bool(true),
  enable_online_push_notifications: bool(true),
  enable_digest_emails: bool(true),
  message_content_in_email_notifications: bool(true),
  pm_content_in_desktop_notifications: bool(true),
  wildcard_mentions_notify: bool(true),
  enable_followed_topic_wildcard_mentions_notify: bool(true),
  automatically_follow_topics_where_mentioned: bool(true),
  presence_enabled: bool(true),
  enter_sends: bool(false),
  twenty_four_hour_time: bool(false),
  send_private_typing_notifications: bool(true),
  send_stream_typing_notifications: bool(true),
  send_read_receipts: bool(true),
  web_navigate_to_sent_message: bool(true),
  enable_marketing_emails: bool(true),
  enable_login_emails: bool(true),
  allow_private_data_export: bool(false),
  web_mark_read_on_scroll_policy: oneOf(1, [1, 2, 3]),
  web_channel_default_view: oneOf(1, [1, 2]),
  web_font_size_px: range(16, 12, 24),
  web_line_height_percent: range(140, 122, 158),
  color_scheme: oneOf(1, [1, 2, 3]),
  web_home_view: word("inbox", ["recent_topics", "inbox", "all_messages"]),
  emojiset: word("google", ["google", "twitter", "text", "google-blob"]),
  user_list_style: oneOf(2, [1, 2, 3]),
  web_animate_image_previews: word("on_hover", ["always", "on_hover", "never"]),
  web_stream_unreads_count_display_policy: oneOf(2, [1, 2, 3]),
  email_notifications_batching_period_seconds: range(120, 120, 7 * 24 * 3600),
  desktop_icon_count_display: oneOf(1, [1, 2, 3, 4]),
  automatically_follow_topics_policy: oneOf(3, FOLLOW_POLICIES),
  automatically_unmute_topics_in_muted_streams_policy: oneOf(2, FOLLOW_POLICIES),
  email_address_visibility: oneOf(1, [1, 2, 3, 4, 5]),
  demote_inactive_streams: oneOf(1, [1, 2, 3]),
  // Checked against the available sounds by the settings actions (checkSetting).
  notification_sound: word("zulip"),
  realm_name_in_email_notifications_policy: oneOf(1, [1, 2, 3]),
  default_language: word("en"),
  timezone: word(""),
} satisfies Record<string, SettingSpec>;

export type UserSettingName = keyof typeof USER_SETTINGS;
export type UserSettings = { [K in UserSettingName]: (typeof USER_SETTINGS)[K]["default"] };

export function defaultUserSettings(): UserSettings {
  return Object.fromEntries(Object.entries(USER_SETTINGS).map(([name, spec]) => [name, spec.default])) as UserSettings;
}

/** Why a value is not allowed for a setting, or null when it is. */
export function settingValueProblem(name: UserSettingName, value: unknown): string | null {
  const spec: SettingSpec = USER_SETTINGS[name];
  if (spec.kind === "bool") return typeof value === "boolean" ? null : `${name} is not a boolean`;
  if (spec.kind === "int") {
    if (typeof value !== "number" || !Number.isInteger(value)) return `${name} is not an integer`;
    if (spec.values && !spec.values.includes(value)) return `Invalid ${name}`;
    if (spec.min !== undefined && value < spec.min) return `Invalid ${name}`;
    if (spec.max !== undefined && value > spec.max) return `Invalid ${name}`;
    return null;
  }
  if (typeof value !== "string") return `${name} is not a string`;
  if (spec.values && !spec.values.includes(value)) return `Invalid ${name}`;
  return null;
}
