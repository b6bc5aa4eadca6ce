import type { GroupSettingValue } from "../shared/groupSettingPicker";

/** A channel as GET /streams gives it to an administrator (include_default adds is_default). */
export interface Channel {
  stream_id: number;
  name: string;
  description: string;
  is_archived: boolean;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  date_created: number;
  creator_id: number | null;
  is_default?: boolean;
  can_add_subscribers_group: GroupSettingValue;
  can_remove_subscribers_group: GroupSettingValue;
  can_administer_channel_group: GroupSettingValue;
  can_send_message_group: GroupSettingValue;
  can_subscribe_group: GroupSettingValue;
}

/** Administrators see every channel, private and archived ones too. */
export const ALL_CHANNELS = { include_all: true, exclude_archived: false, include_default: true };

/**
 * Who may read a channel, in one choice: the reference's invite_only, history_public_to_subscribers
 * and is_web_public together. Web-public is only shown for channels that already are.
 */
export type Privacy = "web-public" | "public" | "private-shared" | "private-protected";

export const PRIVACY_OPTIONS: Array<{ value: Privacy; label: string; hint: string }> = [
  { value: "public", label: "Public", hint: "Every member can find it, join it and read its whole history." },
  { value: "private-shared", label: "Private, shared history", hint: "Only subscribers see it; someone added later reads everything sent before." },
  { value: "private-protected", label: "Private, protected history", hint: "Only subscribers see it; someone added later reads only what is sent after they join." },
];
export const WEB_PUBLIC_OPTION = { value: "web-public" as Privacy, label: "Web-public", hint: "Anyone on the internet can read it without an account." };

export function privacyOf(channel: Pick<Channel, "invite_only" | "is_web_public" | "history_public_to_subscribers">): Privacy {
  if (channel.is_web_public) return "web-public";
  if (!channel.invite_only) return "public";
  return channel.history_public_to_subscribers ? "private-shared" : "private-protected";
}

export const PRIVACY_NAMES: Record<Privacy, string> = { "web-public": "Web-public", public: "Public", "private-shared": "Private", "private-protected": "Private" };

/** The PATCH /streams parameters that move a channel to this privacy, only those that change. */
export function privacyChanges(channel: Channel, privacy: Privacy): Record<string, boolean> {
  const target = { invite_only: privacy.startsWith("private"), is_web_public: privacy === "web-public", history: privacy !== "private-protected" };
  const changes: Record<string, boolean> = {};
  if (target.invite_only !== channel.invite_only) {
    changes.is_private = target.invite_only;
    // The server picks a history for a channel changing sides; say which one we mean.
    changes.history_public_to_subscribers = target.history;
  } else if (target.history !== channel.history_public_to_subscribers) changes.history_public_to_subscribers = target.history;
  if (target.is_web_public !== channel.is_web_public) changes.is_web_public = target.is_web_public;
  return changes;
}

/** The channel group settings Parley has, with what each lets people do and which system groups it takes. */
export const CHANNEL_PERMISSIONS: Array<{ name: GroupSettingName; label: string; hint: string; everyone: boolean }> = [
  { name: "can_send_message_group", label: "Who can post", hint: "Others can still read, if they may see the channel.", everyone: true },
  { name: "can_administer_channel_group", label: "Who can administer the channel", hint: "Rename it, change these settings, archive it. Organization administrators always can.", everyone: false },
  { name: "can_subscribe_group", label: "Who can join without being added", hint: "For private channels; anyone may join a public one.", everyone: false },
  { name: "can_add_subscribers_group", label: "Who can add subscribers", hint: "Besides the organization-wide setting.", everyone: false },
  { name: "can_remove_subscribers_group", label: "Who can remove subscribers", hint: "Anyone may always leave by themselves.", everyone: true },
];
export type GroupSettingName = "can_send_message_group" | "can_administer_channel_group" | "can_subscribe_group" | "can_add_subscribers_group" | "can_remove_subscribers_group";

/** The system groups a setting may name: these refuse role:everyone (it holds guests) where `everyone` is false. */
export const allowedSystemGroups = (everyone: boolean) =>
  ["role:everyone", "role:members", "role:fullmembers", "role:moderators", "role:administrators", "role:owners", "role:nobody"].filter((name) => everyone || name !== "role:everyone");
