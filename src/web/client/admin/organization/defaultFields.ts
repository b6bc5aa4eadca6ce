/** The defaults for new users the Defaults tab offers, grouped; the values are the API's. */

export type DefaultField =
  | { name: string; label: string; kind: "bool"; hint?: string }
  | { name: string; label: string; kind: "choice"; options: Array<{ value: string | number; label: string }> };

const FOLLOW = [
  { value: 1, label: "Topics they take part in" },
  { value: 2, label: "Topics they send a message to" },
  { value: 3, label: "Topics they start" },
  { value: 4, label: "Never" },
];

export const DEFAULT_SECTIONS: Array<{ title: string; fields: DefaultField[] }> = [
  {
    title: "Display",
    fields: [
      { name: "color_scheme", label: "Theme", kind: "choice", options: [{ value: 1, label: "Automatic" }, { value: 3, label: "Light" }, { value: 2, label: "Dark" }] },
      { name: "web_home_view", label: "Home view", kind: "choice", options: [{ value: "inbox", label: "Inbox" }, { value: "recent_topics", label: "Recent conversations" }, { value: "all_messages", label: "Combined feed" }] },
      { name: "emojiset", label: "Emoji style", kind: "choice", options: [{ value: "google", label: "Google" }, { value: "twitter", label: "Twitter" }, { value: "google-blob", label: "Google blobs" }, { value: "text", label: "Plain text" }] },
      { name: "user_list_style", label: "People list", kind: "choice", options: [{ value: 1, label: "Compact" }, { value: 2, label: "With status" }, { value: 3, label: "With avatar and status" }] },
      { name: "web_animate_image_previews", label: "Animated images", kind: "choice", options: [{ value: "always", label: "Always play" }, { value: "on_hover", label: "Play on hover" }, { value: "never", label: "Never play" }] },
      { name: "twenty_four_hour_time", label: "24-hour time", kind: "bool" },
      { name: "left_side_userlist", label: "People list on the left", kind: "bool" },
      { name: "fluid_layout_width", label: "Use the full window width", kind: "bool" },
      { name: "high_contrast_mode", label: "High contrast", kind: "bool" },
      { name: "display_emoji_reaction_users", label: "Show who reacted, for few reactions", kind: "bool" },
      { name: "translate_emoticons", label: "Turn emoticons like :) into emoji", kind: "bool" },
      { name: "starred_message_counts", label: "Show the number of starred messages", kind: "bool" },
    ],
  },
  {
    title: "Notifications",
    fields: [
      { name: "desktop_icon_count_display", label: "Count on the app icon", kind: "choice", options: [{ value: 1, label: "All unread messages" }, { value: 2, label: "DMs, mentions and followed topics" }, { value: 3, label: "DMs and mentions" }, { value: 4, label: "None" }] },
      { name: "enable_desktop_notifications", label: "Desktop notifications for DMs and mentions", kind: "bool" },
      { name: "enable_sounds", label: "Sounds for DMs and mentions", kind: "bool" },
      { name: "pm_content_in_desktop_notifications", label: "Message text in desktop notifications", kind: "bool" },
      { name: "wildcard_mentions_notify", label: "Notify for @all and @everyone", kind: "bool" },
      { name: "enable_offline_email_notifications", label: "E-mail for DMs and mentions while away", kind: "bool" },
      { name: "enable_offline_push_notifications", label: "Mobile notifications while away", kind: "bool" },
      { name: "message_content_in_email_notifications", label: "Message text in e-mails", kind: "bool" },
      { name: "enable_digest_emails", label: "Digest e-mails when away for a while", kind: "bool" },
      { name: "enable_stream_desktop_notifications", label: "Desktop notifications for every channel message", kind: "bool" },
      { name: "enable_stream_email_notifications", label: "E-mail for every channel message", kind: "bool" },
      { name: "enable_followed_topic_desktop_notifications", label: "Desktop notifications for followed topics", kind: "bool" },
      { name: "enable_followed_topic_email_notifications", label: "E-mail for followed topics", kind: "bool" },
    ],
  },
  {
    title: "Behaviour",
    fields: [
      { name: "automatically_follow_topics_policy", label: "Follow topics automatically", kind: "choice", options: FOLLOW },
      { name: "automatically_unmute_topics_in_muted_streams_policy", label: "Unmute topics in muted channels automatically", kind: "choice", options: FOLLOW },
      { name: "web_mark_read_on_scroll_policy", label: "Mark messages read when scrolling", kind: "choice", options: [{ value: 1, label: "Always" }, { value: 2, label: "In conversation views only" }, { value: 3, label: "Never" }] },
      { name: "web_channel_default_view", label: "Clicking a channel opens", kind: "choice", options: [{ value: 1, label: "Its top topic" }, { value: 2, label: "The channel feed" }] },
      { name: "enter_sends", label: "Enter sends a message (Shift+Enter for a new line)", kind: "bool" },
      { name: "automatically_follow_topics_where_mentioned", label: "Follow topics where they are mentioned", kind: "bool" },
      { name: "web_navigate_to_sent_message", label: "Go to a message after sending it", kind: "bool" },
      { name: "enable_drafts_synchronization", label: "Keep drafts on the server", kind: "bool" },
    ],
  },
  {
    title: "Privacy",
    fields: [
      { name: "email_address_visibility", label: "Who sees their e-mail address", kind: "choice", options: [{ value: 1, label: "Everyone" }, { value: 2, label: "Members" }, { value: 5, label: "Moderators" }, { value: 3, label: "Administrators" }, { value: 4, label: "Nobody" }] },
      { name: "send_read_receipts", label: "Tell others when they have read a message", kind: "bool" },
      { name: "send_private_typing_notifications", label: "Show others when they type a DM", kind: "bool" },
      { name: "send_stream_typing_notifications", label: "Show others when they type in a channel", kind: "bool" },
      { name: "presence_enabled", label: "Show when they are online", kind: "bool" },
    ],
  },
];
