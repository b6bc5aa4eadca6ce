import { batch, computed, signal } from "@preact/signals";
import type { Muting } from "../model/narrow";
import { dmKey, dmPeople } from "../model/narrow";
import type { Channel, RealmEmoji, Snapshot, Subscription, User, UserSettings, UserStatus } from "../model/types";

/**
 * What the chat knows besides messages: who is here, the channels, the person's settings and
 * mutes. Filled from the register snapshot and kept current by events (state/events.ts). Each
 * piece is a signal holding an immutable value, replaced whole on change, so views that read
 * it redraw and nothing else does.
 */

export interface RealmRules {
  name: string;
  url: string;
  emptyTopicName: string;
  allowEditing: boolean;
  editLimitSeconds: number | null;
  deleteLimitSeconds: number | null;
  mandatoryTopics: boolean;
  maxMessageLength: number;
  maxTopicLength: number;
  typingStartedWaitMs: number;
  typingStoppedWaitMs: number;
  typingExpiryMs: number;
  emojiDataUrl?: string;
}

export interface Me {
  userId: number;
  email: string;
  fullName: string;
  avatarUrl: string | null;
  isAdmin: boolean;
  isModerator: boolean;
  isGuest: boolean;
}

export const me = signal<Me>({ userId: 0, email: "", fullName: "", avatarUrl: null, isAdmin: false, isModerator: false, isGuest: false });
export const realm = signal<RealmRules>({} as RealmRules);
export const users = signal<Map<number, User>>(new Map());
/** Every channel the person can see, subscribed or not. */
export const channels = signal<Map<number, Channel>>(new Map());
export const subscriptions = signal<Map<number, Subscription>>(new Map());
export const userSettings = signal<UserSettings>({} as UserSettings);
export const userStatus = signal<Record<string, UserStatus>>({});
export const realmEmoji = signal<Record<string, RealmEmoji>>({});
export const mutedUsers = signal<Set<number>>(new Set());
/** `channelId:topic` (topic lower-cased) → the reference's visibility_policy (1 muted, 2 unmuted, 3 followed). */
export const userTopics = signal<Map<string, number>>(new Map());
/** DM conversations (dmKey) → their newest message id. */
export const recentDms = signal<Map<string, number>>(new Map());
/** user id → seconds since the epoch they were last active, from presence. */
export const lastActive = signal<Map<number, number>>(new Map());

export const topicKey = (channelId: number, topic: string) => `${channelId}:${topic.toLowerCase()}`;

export function loadSnapshot(snapshot: Snapshot) {
  batch(() => {
    me.value = {
      userId: snapshot.user_id,
      email: snapshot.email,
      fullName: snapshot.full_name,
      avatarUrl: snapshot.avatar_url,
      isAdmin: snapshot.is_admin,
      isModerator: snapshot.is_moderator,
      isGuest: snapshot.is_guest,
    };
    realm.value = {
      name: snapshot.realm_name,
      url: snapshot.realm_url ?? snapshot.realm_uri ?? location.origin,
      emptyTopicName: snapshot.realm_empty_topic_display_name ?? "general chat",
      allowEditing: snapshot.realm_allow_message_editing,
      editLimitSeconds: snapshot.realm_message_content_edit_limit_seconds,
      deleteLimitSeconds: snapshot.realm_message_content_delete_limit_seconds,
      mandatoryTopics: snapshot.realm_mandatory_topics ?? snapshot.realm_topics_policy === "disable_empty_topic",
      maxMessageLength: snapshot.max_message_length,
      maxTopicLength: snapshot.max_topic_length,
      typingStartedWaitMs: snapshot.server_typing_started_wait_period_milliseconds,
      typingStoppedWaitMs: snapshot.server_typing_stopped_wait_period_milliseconds,
      typingExpiryMs: snapshot.server_typing_started_expiry_period_milliseconds,
      emojiDataUrl: snapshot.server_emoji_data_url,
    };
    users.value = new Map([...snapshot.realm_users, ...(snapshot.cross_realm_bots ?? [])].map((user) => [user.user_id, user]));
    channels.value = new Map([...snapshot.subscriptions, ...snapshot.unsubscribed, ...snapshot.never_subscribed].map((channel) => [channel.stream_id, channel]));
    subscriptions.value = new Map(snapshot.subscriptions.map((sub) => [sub.stream_id, sub]));
    userSettings.value = snapshot.user_settings;
    userStatus.value = snapshot.user_status ?? {};
    realmEmoji.value = snapshot.realm_emoji ?? {};
    mutedUsers.value = new Set((snapshot.muted_users ?? []).map((muted) => muted.id));
    userTopics.value = new Map((snapshot.user_topics ?? []).map((topic) => [topicKey(topic.stream_id, topic.topic_name), topic.visibility_policy]));
    recentDms.value = new Map(snapshot.recent_private_conversations.map((conversation) => [dmKey(dmPeople(conversation.user_ids, snapshot.user_id)), conversation.max_message_id]));
    lastActive.value = new Map(
      Object.entries(snapshot.presences ?? {}).map(([id, presence]) => [Number(id), Math.max(presence.active_timestamp ?? 0, presence.idle_timestamp ?? 0)]),
    );
  });
}

export const userName = (userId: number) => users.value.get(userId)?.full_name;
export const channelName = (channelId: number) => channels.value.get(channelId)?.name;
export const names = { userName, channelName };

/** Shown for a topic: the organization's name for the empty topic instead of nothing. */
export const topicLabel = (topic: string) => topic || realm.value.emptyTopicName;

export const muting: Muting = {
  isChannelMuted: (channelId) => subscriptions.value.get(channelId)?.is_muted ?? false,
  isTopicVisibleInFeed(channelId, topic) {
    const sub = subscriptions.value.get(channelId);
    if (!sub) return false;
    const policy = userTopics.value.get(topicKey(channelId, topic)) ?? 0;
    if (sub.is_muted) return policy === 2 || policy === 3;
    return policy !== 1;
  },
};

/** Channels in the sidebar: pinned first, then by name. */
export const sortedSubscriptions = computed(() =>
  [...subscriptions.value.values()].filter((sub) => !sub.is_archived).sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || a.name.localeCompare(b.name)),
);

/** People who can be written to: active, not me first. */
export const activeUsers = computed(() => [...users.value.values()].filter((user) => user.is_active).sort((a, b) => a.full_name.localeCompare(b.full_name)));

export function noteDmActivity(userIds: number[], messageId: number) {
  const key = dmKey(userIds);
  if ((recentDms.value.get(key) ?? 0) >= messageId) return;
  const next = new Map(recentDms.value);
  next.set(key, messageId);
  recentDms.value = next;
}

/** Muted by the person: the topic itself, or its channel without the topic being unmuted. */
export const isTopicMuted = (channelId: number, topic: string) => !muting.isTopicVisibleInFeed(channelId, topic);
