import type { GroupSettingRules } from "./groupSetting";
import { SystemGroup, type SystemGroupName } from "./roles";

/** Reported by /register as max_stream_name_length and max_stream_description_length. */
export const MAX_CHANNEL_NAME_LENGTH = 60;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;

/** A new channel's default: a system group, or an anonymous value holding just its creator. */
export type ChannelGroupDefault = SystemGroupName | "channel_creator";

const restricted: GroupSettingRules = { allowInternet: false, allowNobody: true, allowEveryone: false };
const open: GroupSettingRules = { allowInternet: false, allowNobody: true, allowEveryone: true };

export const CHANNEL_GROUP_SETTINGS = {
  can_add_subscribers_group: { rules: restricted, default: SystemGroup.NOBODY as ChannelGroupDefault },
  can_remove_subscribers_group: { rules: open, default: SystemGroup.ADMINISTRATORS as ChannelGroupDefault },
  can_administer_channel_group: { rules: restricted, default: "channel_creator" as ChannelGroupDefault },
  can_send_message_group: { rules: open, default: SystemGroup.EVERYONE as ChannelGroupDefault },
  can_subscribe_group: { rules: restricted, default: SystemGroup.NOBODY as ChannelGroupDefault },
};
export type ChannelGroupSettingName = keyof typeof CHANNEL_GROUP_SETTINGS;
export const CHANNEL_GROUP_SETTING_NAMES = Object.keys(CHANNEL_GROUP_SETTINGS) as ChannelGroupSettingName[];

/** Changing these needs content access to the channel; the others need metadata access. */
export const SETTINGS_NEEDING_CONTENT_ACCESS: ReadonlySet<ChannelGroupSettingName> = new Set(["can_add_subscribers_group", "can_subscribe_group"]);
/** Members of these groups can see that a private channel exists and who is in it. */
export const SETTINGS_GRANTING_METADATA_ACCESS: readonly ChannelGroupSettingName[] = ["can_administer_channel_group", "can_add_subscribers_group", "can_subscribe_group"];

/** The deprecated stream_post_policy, derived from can_send_message_group when it is a role group. */
export const StreamPostPolicy = { EVERYONE: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4 } as const;
const POST_POLICY_OF_GROUP: Partial<Record<string, number>> = {
  [SystemGroup.EVERYONE]: StreamPostPolicy.EVERYONE,
  [SystemGroup.ADMINISTRATORS]: StreamPostPolicy.ADMINS,
  [SystemGroup.FULL_MEMBERS]: StreamPostPolicy.FULL_MEMBERS,
  [SystemGroup.MODERATORS]: StreamPostPolicy.MODERATORS,
};
export const streamPostPolicyOf = (systemGroupName: string | undefined) =>
  (systemGroupName && POST_POLICY_OF_GROUP[systemGroupName]) || StreamPostPolicy.EVERYONE;

/** Per-channel notification settings a subscriber may change (POST /users/me/subscriptions/properties). */
export const NOTIFICATION_PROPERTIES = ["desktop_notifications", "audible_notifications", "push_notifications", "email_notifications", "wildcard_mentions_notify"] as const;
export type NotificationProperty = (typeof NOTIFICATION_PROPERTIES)[number];

/** The user setting a null per-channel notification setting inherits. */
export const INHERITED_USER_SETTING = {
  desktop_notifications: "enable_stream_desktop_notifications",
  audible_notifications: "enable_stream_audible_notifications",
  push_notifications: "enable_stream_push_notifications",
  email_notifications: "enable_stream_email_notifications",
  wildcard_mentions_notify: "wildcard_mentions_notify",
} as const satisfies Record<NotificationProperty, string>;

/** The palette new subscriptions take their color from (the original server's, so clients match). */
export const CHANNEL_COLORS = [
  "#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5",
  "#f5ce6e", "#c2726a", "#94c849", "#bd86e5", "#ee7e4a", "#a6dcbf", "#95a5fd", "#53a063",
  "#9987e1", "#e4523d", "#c2c2c2", "#4f8de4", "#c6a8ad", "#e7cc4d", "#c8bebf", "#a47462",
];

export const isHexColor = (value: string) => /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value);

/**
 * Colors for a user's new subscriptions: palette colors they do not use yet, in palette order,
 * then, once all are taken, one fixed by the channel ID so it stays the same on every device.
 */
export function pickColors(used: Set<string>, channelIds: number[]): Map<number, string> {
  const free = CHANNEL_COLORS.filter((color) => !used.has(color));
  const result = new Map<number, string>();
  [...channelIds].sort((a, b) => a - b).forEach((id, i) => result.set(id, free[i] ?? CHANNEL_COLORS[id % CHANNEL_COLORS.length]));
  return result;
}

/** Why a channel name is unacceptable, or null. Names arrive already trimmed. */
export function channelNameProblem(name: string): string | null {
  if (name === "") return "Channel name can't be empty.";
  if ([...name].length > MAX_CHANNEL_NAME_LENGTH) return `Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`;
  const position = [...name].findIndex((char) => /[\p{Cc}\p{Cs}\p{Co}\p{Cn}]/u.test(char));
  if (position >= 0) return `Invalid character in channel name, at position ${position + 1}.`;
  return null;
}

/** Descriptions are one paragraph: line breaks become spaces, as in the original server. */
export const normalizeDescription = (description: string) => description.replace(/\r?\n/g, " ");

/**
 * message_retention_days as sent: "realm_default" (null, inherit), "unlimited" (-1), or a
 * positive number of days. Returns undefined when the value is none of these.
 */
export function parseRetentionDays(value: string | number): number | null | undefined {
  if (value === "realm_default") return null;
  if (value === "unlimited") return -1;
  const days = typeof value === "number" ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(days) && days > 0 ? days : undefined;
}
