import { realmHost } from "../../db/realm";
import type { Reader } from "../../db/types";
import { presenceTiming } from "../../model/presence";
import { uploadLimitMib } from "../../model/uploads";
import { REALM_GROUP_SETTING_DEFAULTS, REALM_SETTING_DEFAULTS, type RealmGroupSettingName } from "../../model/realmSettings";
import { longpollTimeoutSeconds, SERVER_GENERATION } from "../registry";
import type { StateContext } from "./context";
import { groupSettingApiValues } from "../../shapes/groupSettings";
import { realmPermissionFields } from "./realmPermissions";
import { serverEmojiDataPath } from "../../render/serverEmojiData";

/**
 * realm: the organization's settings and the server's limits. Every realm setting appears as
 * realm_<name>, so a setting added to model/realmSettings.ts shows up here by itself; group
 * settings as group-setting values (spec convention 7).
 */

// Settings the API reports as -1 when unset, where we store null.
const NULL_AS_MINUS_ONE = new Set(["new_stream_announcements_stream_id", "message_retention_days"]);

async function settingFields(db: Reader, settings: StateContext["realm"]["settings"]) {
  const fields: Record<string, unknown> = {};
  for (const name of Object.keys(REALM_SETTING_DEFAULTS) as Array<keyof typeof REALM_SETTING_DEFAULTS>) {
    const value = settings[name];
    fields[`realm_${name}`] = value === null && NULL_AS_MINUS_ONE.has(name) ? -1 : value;
  }
  // A server limit in the reference, so without the prefix; the limit that applies.
  delete fields.realm_max_file_upload_size_mib;
  fields.max_file_upload_size_mib = uploadLimitMib(settings.max_file_upload_size_mib);
  const groupNames = Object.keys(REALM_GROUP_SETTING_DEFAULTS) as RealmGroupSettingName[];
  const values = await groupSettingApiValues(db, groupNames.map((name) => settings[name]));
  for (const name of groupNames) fields[`realm_${name}`] = values.get(settings[name]);
  return fields;
}

/** Settings this server does not make configurable, at the values it behaves by. */
const FIXED_REALM_FIELDS = {
  realm_default_language: "en",
  realm_require_unique_names: false,
  realm_name_changes_disabled: false,
  realm_email_changes_disabled: false,
  realm_avatar_changes_disabled: false,
  realm_emails_restricted_to_domains: false,
  realm_disallow_disposable_email_addresses: true,
  realm_send_welcome_emails: false,
  realm_digest_emails_enabled: false,
  realm_digest_weekday: 1,
  realm_inline_image_preview: true,
  realm_inline_url_embed_preview: false,
  realm_presence_disabled: false,
  realm_enable_read_receipts: true,
  realm_enable_guest_user_indicator: true,
  realm_enable_guest_user_dm_warning: true,
  realm_video_chat_provider: 0,
  realm_available_video_chat_providers: { disabled: { name: "None", id: 0 } },
  realm_jitsi_server_url: null,
  realm_giphy_rating: 0,
  realm_default_code_block_language: "",
  realm_authentication_methods: {
    Email: { enabled: true, available: true },
    Password: { enabled: true, available: true },
  },
  realm_email_auth_enabled: true,
  realm_password_auth_enabled: true,
  realm_push_notifications_enabled: false,
  realm_push_notifications_enabled_end_timestamp: null,
  realm_org_type: 0,
  realm_plan_type: 1,
  realm_is_zephyr_mirror_realm: false,
  realm_want_advertise_in_communities_directory: false,
  realm_signup_announcements_stream_id: -1,
  realm_zulip_update_announcements_stream_id: -1,
  realm_svc_update_announcements_stream_id: -1,
  realm_moderation_request_channel_id: -1,
  realm_default_external_accounts: {},
  realm_icon_source: "G",
  realm_logo_source: "D",
  realm_night_logo_source: "D",
  zulip_plan_is_not_limited: true,
  svc_plan_is_not_limited: true,
  upgrade_text_for_wide_organization_logo: "",
  settings_send_digest_emails: false,
  development_environment: false,
  password_min_length: 8,
  password_max_length: 100,
  password_min_guesses: 10000,
  max_avatar_file_size_mib: 5,
  max_icon_file_size_mib: 5,
  max_logo_file_size_mib: 5,
  giphy_rating_options: {},
  // A string in the reference ("realm_jitsi_server_url || server_jitsi_server_url"); no video
  // call provider is configured (realm_video_chat_provider 0), so there is no URL to give.
  jitsi_server_url: "",
  server_inline_image_preview: true,
  server_inline_url_embed_preview: false,
  server_avatar_changes_disabled: false,
  server_name_changes_disabled: false,
  server_needs_upgrade: false,
  server_web_public_streams_enabled: true,
  server_can_summarize_topics: false,
  server_jitsi_server_url: null,
  server_min_deactivated_realm_deletion_days: null,
  server_max_deactivated_realm_deletion_days: null,
  server_thumbnail_formats: [],
};

export async function realmState(db: Reader, { realm }: StateContext) {
  const url = realm.url;
  return {
    realm_name: realm.name,
    realm_description: realm.description,
    realm_url: url,
    realm_uri: url,
    realm_date_created: realm.dateCreated,
    realm_bot_domain: realmHost(realm),
    realm_icon_url: `${url}/static/icon.png`,
    realm_logo_url: `${url}/static/logo.png`,
    realm_night_logo_url: `${url}/static/logo.png`,
    realm_topics_policy: realm.settings.mandatory_topics ? "disable_empty_topic" : "allow_empty_topic",
    // The deprecated boolean form of message_edit_history_visibility_policy.
    realm_allow_edit_history: realm.settings.message_edit_history_visibility_policy !== "none",
    ...FIXED_REALM_FIELDS,
    ...(await settingFields(db, realm.settings)),
    ...(await realmPermissionFields(db, realm)),
    // Absolute: the mobile app fetches it as given, without resolving it against the realm URL.
    server_emoji_data_url: `${url}${serverEmojiDataPath()}`,
    server_generation: SERVER_GENERATION,
    event_queue_longpoll_timeout_seconds: longpollTimeoutSeconds(),
    // The reference's 60 and 140 unless configured otherwise (model/presence.ts).
    server_presence_ping_interval_seconds: presenceTiming().pingIntervalSeconds,
    server_presence_offline_threshold_seconds: presenceTiming().offlineThresholdSeconds,
  };
}
