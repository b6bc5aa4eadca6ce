import type { UserSettingName } from "./userSettings";

/**
 * Before feature level 89 settings came in two groups, each with its own register fields and
 * event type; clients without the user_settings_object capability still expect them.
 */
export const LEGACY_DISPLAY_SETTINGS: readonly UserSettingName[] = [
  "color_scheme",
  "default_language",
  "demote_inactive_streams",
  "emojiset",
  "enable_drafts_synchronization",
  "enter_sends",
  "fluid_layout_width",
  "high_contrast_mode",
  "left_side_userlist",
  "starred_message_counts",
  "timezone",
  "translate_emoticons",
  "twenty_four_hour_time",
  "web_home_view",
  // Listed among these in the reference's register response (feature level 253).
  "receives_typing_notifications",
];

export const LEGACY_NOTIFICATION_SETTINGS: readonly UserSettingName[] = [
  "enable_desktop_notifications",
  "enable_digest_emails",
  "enable_login_emails",
  "enable_marketing_emails",
  "email_notifications_batching_period_seconds",
  "enable_offline_email_notifications",
  "enable_offline_push_notifications",
  "enable_online_push_notifications",
  "enable_sounds",
  "enable_stream_desktop_notifications",
  "enable_stream_email_notifications",
  "enable_stream_push_notifications",
  "enable_stream_audible_notifications",
  "wildcard_mentions_notify",
  "message_content_in_email_notifications",
  "notification_sound",
  "pm_content_in_desktop_notifications",
  "desktop_icon_count_display",
  "realm_name_in_email_notifications_policy",
  "presence_enabled",
];

/** The emoji sets a user may choose (emojiset), with the names settings pages show. */
export const EMOJISET_CHOICES = [
  { key: "google", text: "Google" },
  { key: "twitter", text: "Twitter" },
  { key: "text", text: "Plain text" },
  { key: "google-blob", text: "Google blobs" },
];

/** Sounds clients may offer for notification_sound; "none" turns sounds off. */
export const NOTIFICATION_SOUNDS = ["chime", "ding", "zulip", "none"];
