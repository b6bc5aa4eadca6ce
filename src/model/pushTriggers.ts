/**
 * Whether a message is pushed to a person's devices, or mailed to them if they leave it unread,
 * and why: the reference's notification triggers for mobile pushes and missed-message e-mails,
 * applied to Web Push and to e-mail. Pure: the caller gathers the facts
 * (actions/messageNotifications.ts).
 */

/** Message flag bits this needs (db/messages.ts Flag has them all). */
export const PushFlag = { READ: 1, UNREAD: 2, MENTIONED: 16, STREAM_WILDCARD_MENTIONED: 32, TOPIC_WILDCARD_MENTIONED: 64, GROUP_MENTIONED: 128, HAS_ALERT_WORD: 256 } as const;

/** db/userTopics.ts VisibilityPolicy. */
const TopicPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

export type PushReason = "direct_message" | "mentioned" | "wildcard_mentioned" | "alert_word" | "followed_topic" | "channel";

export interface PushSettings {
  enable_offline_push_notifications?: boolean;
  enable_online_push_notifications?: boolean;
  enable_stream_push_notifications?: boolean;
  enable_followed_topic_push_notifications?: boolean;
  enable_offline_email_notifications?: boolean;
  enable_stream_email_notifications?: boolean;
  enable_followed_topic_email_notifications?: boolean;
  wildcard_mentions_notify?: boolean;
  enable_followed_topic_wildcard_mentions_notify?: boolean;
}

export interface PushFacts {
  direct: boolean;
  /** The person's flag bits on the message. */
  flags: number;
  /** Read already (a flag or a read mark covers it). */
  read: boolean;
  /** The person muted the sender. */
  senderMuted: boolean;
  /** The person is active in a client now (presence within the offline threshold). */
  online: boolean;
  settings: PushSettings;
  /** A channel message: the person's subscription's settings (null: follow the person's defaults). */
  channel?: { muted: boolean; pushNotifications: boolean | null; emailNotifications: boolean | null; wildcardMentionsNotify: boolean | null };
  /** The person's visibility policy for the topic (0 inherit, 1 muted, 2 unmuted, 3 followed). */
  topicPolicy?: number;
}

const on = (value: boolean | undefined, byDefault: boolean) => value ?? byDefault;

export type Medium = "push" | "email";

/** Why the message is pushed to this person (or mailed, for "email"), or null when it is not. */
export function pushReason(facts: PushFacts, medium: Medium = "push"): PushReason | null {
  const { settings, flags } = facts;
  if (facts.read || facts.senderMuted) return null;
  // Someone active in another client sees it there; only pushes have a setting to be sent anyway
  // (a missed-message e-mail waits for the batching period and goes only if it stays unread).
  if (medium === "push" && facts.online && !on(settings.enable_online_push_notifications, true)) return null;
  const personal = medium === "push" ? on(settings.enable_offline_push_notifications, true) : on(settings.enable_offline_email_notifications, true);
  if (facts.direct) return personal ? "direct_message" : null;
  if (flags & (PushFlag.MENTIONED | PushFlag.GROUP_MENTIONED)) {
    if (personal) return "mentioned";
  }
  const policy = facts.topicPolicy ?? TopicPolicy.INHERIT;
  const channel = facts.channel ?? { muted: false, pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null };
  // A muted topic, or a muted channel whose topic is not unmuted or followed, is quiet but for personal mentions.
  const quiet = policy === TopicPolicy.MUTED || (channel.muted && policy !== TopicPolicy.UNMUTED && policy !== TopicPolicy.FOLLOWED);
  if (quiet) return null;
  if (flags & (PushFlag.STREAM_WILDCARD_MENTIONED | PushFlag.TOPIC_WILDCARD_MENTIONED)) {
    const wildcard = policy === TopicPolicy.FOLLOWED ? on(settings.enable_followed_topic_wildcard_mentions_notify, true) : (channel.wildcardMentionsNotify ?? on(settings.wildcard_mentions_notify, true));
    if (wildcard && personal) return "wildcard_mentioned";
  }
  if (flags & PushFlag.HAS_ALERT_WORD && personal) return "alert_word";
  const followed = medium === "push" ? on(settings.enable_followed_topic_push_notifications, true) : on(settings.enable_followed_topic_email_notifications, true);
  if (policy === TopicPolicy.FOLLOWED && followed) return "followed_topic";
  const channelSetting = medium === "push" ? channel.pushNotifications : channel.emailNotifications;
  const channelDefault = medium === "push" ? on(settings.enable_stream_push_notifications, false) : on(settings.enable_stream_email_notifications, false);
  if (channelSetting ?? channelDefault) return "channel";
  return null;
}
