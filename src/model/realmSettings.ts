import { SystemGroup, type SystemGroupName } from "./roles";

/**
 * Organization-wide settings kept in the realm row as JSON, so a later feature adds a setting
 * here, with its default, and needs no migration. Values stored are merged over these defaults.
 */
export const REALM_SETTING_DEFAULTS = {
  /** Channel messages must carry a non-empty topic. */
  mandatory_topics: false,
  /** Days before a new member becomes a full member (role:fullmembers). */
  waiting_period_threshold: 0,
  /** Spectators may read web-public channels without an account. */
  enable_spectator_access: false,
  /** Shown for the empty topic to clients without the empty_topic_name capability. */
  empty_topic_display_name: "general chat",
  /** Where the notification bot announces new channels; null until channels exist. */
  new_stream_announcements_stream_id: null as number | null,
  /** null: keep messages forever. */
  message_retention_days: null as number | null,
  invite_required: true,
  email_address_visibility: 1,
  /** Whether senders may edit their messages' content at all. */
  allow_message_editing: true,
  /** Seconds after sending that a sender may still edit the content; null: no limit. */
  message_content_edit_limit_seconds: 600 as number | null,
  /** Seconds after sending that a sender may still delete their message; null: no limit. */
  message_content_delete_limit_seconds: null as number | null,
  /** Time limits for moving messages, for everyone below moderator; null: no limit. */
  move_messages_within_stream_limit_seconds: 604800 as number | null,
  move_messages_between_streams_limit_seconds: 604800 as number | null,
  /** The largest upload, in MiB; the server's ceiling (model/uploads.ts) caps it. Reported without the realm_ prefix. */
  max_file_upload_size_mib: 25,
  /**
   * What all uploads together may take, in MiB; null: no limit. Bounded by default (10 GiB), so
   * a fresh server's disk is not open to whoever may upload.
   */
  upload_quota_mib: 10_240 as number | null,
  /**
   * What one person's uploads and their bots' may take together, in MiB; null: no limit.
   * Parley's (the reference has only the organization's quota).
   */
  upload_quota_per_user_mib: 1_024 as number | null,
  /** Which edit history people may see: "all", "moves" (moves only) or "none" (also realm_allow_edit_history). */
  message_edit_history_visibility_policy: "all" as "all" | "moves" | "none",
  /** Whether notifications away from the app (missed-message e-mails, Web Push) may show what a message says. */
  message_content_allowed_in_email_notifications: true,
};
export type RealmScalarSettings = typeof REALM_SETTING_DEFAULTS;

/** Realm permissions expressed as group-settings, with the system group each starts as. */
export const REALM_GROUP_SETTING_DEFAULTS = {
  can_create_public_channel_group: SystemGroup.MEMBERS,
  can_create_private_channel_group: SystemGroup.MEMBERS,
  can_create_web_public_channel_group: SystemGroup.OWNERS,
  can_add_subscribers_group: SystemGroup.MEMBERS,
  can_invite_users_group: SystemGroup.MEMBERS,
  create_multiuse_invite_group: SystemGroup.ADMINISTRATORS,
  can_create_groups: SystemGroup.MEMBERS,
  can_manage_all_groups: SystemGroup.OWNERS,
  can_mention_many_users_group: SystemGroup.ADMINISTRATORS,
  can_create_bots_group: SystemGroup.MEMBERS,
  can_create_write_only_bots_group: SystemGroup.MEMBERS,
  can_delete_any_message_group: SystemGroup.ADMINISTRATORS,
  can_delete_own_message_group: SystemGroup.EVERYONE,
  can_move_messages_between_channels_group: SystemGroup.MEMBERS,
  can_move_messages_between_topics_group: SystemGroup.EVERYONE,
  can_resolve_topics_group: SystemGroup.EVERYONE,
  can_access_all_users_group: SystemGroup.EVERYONE,
  can_add_custom_emoji_group: SystemGroup.MEMBERS,
  can_manage_billing_group: SystemGroup.ADMINISTRATORS,
  can_summarize_topics_group: SystemGroup.EVERYONE,
  direct_message_permission_group: SystemGroup.EVERYONE,
  direct_message_initiator_group: SystemGroup.EVERYONE,
} satisfies Record<string, SystemGroupName>;
export type RealmGroupSettingName = keyof typeof REALM_GROUP_SETTING_DEFAULTS;

/** Stored form: each group-setting is a user group ID. */
export type RealmSettings = RealmScalarSettings & Record<RealmGroupSettingName, number>;
