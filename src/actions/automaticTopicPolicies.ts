import { topicHasMessages } from "../db/sendQueries";
import type { SendTx } from "../db/types";
import { settingsOfUsers, type User } from "../db/users";
import { findUserTopic, followersOfTopicAmong, topicKeyOf, VisibilityPolicy } from "../db/userTopics";
import { setTopicPolicy } from "./userTopics";
import { USER_SETTINGS, type UserSettingName, type UserSettings } from "../model/userSettings";

/**
 * Topics that sending a message follows or unmutes automatically, by the users' settings
 * automatically_follow_topics_policy, automatically_unmute_topics_in_muted_streams_policy and
 * automatically_follow_topics_where_mentioned. These policies only ever raise a user's
 * visibility: a followed topic stays followed.
 */

/** Values of the two automatic policies (reference: update-settings). */
export const AutomaticPolicy = { ON_PARTICIPATION: 1, ON_SEND: 2, ON_INITIATION: 3, NEVER: 4 } as const;

/** A user's setting, or its default for accounts created before the setting existed. */
const settingOf = <K extends UserSettingName>(settings: UserSettings, name: K): UserSettings[K] => settings[name] ?? (USER_SETTINGS[name].default as UserSettings[K]);

export interface TopicPolicyChange {
  userId: number;
  policy: VisibilityPolicy;
}

export interface TopicInSending {
  channelId: number;
  topic: string;
  /** Whether the sender muted the channel. */
  channelMuted: boolean;
}

/** What the sender's settings want for the topic; call before the message is inserted. */
export async function senderTopicPolicyChange(tx: SendTx, sender: User, where: TopicInSending): Promise<TopicPolicyChange | null> {
  let firstInTopic: boolean | undefined;
  const startsTopic = async () => (firstInTopic ??= !(await topicHasMessages(tx, where.channelId, topicKeyOf(where.topic))));
  // A plain answer unless the policy depends on the topic: only then is there a lookup to wait for.
  const triggered = (policy: unknown): boolean | Promise<boolean> =>
    policy === AutomaticPolicy.ON_SEND || policy === AutomaticPolicy.ON_PARTICIPATION || (policy === AutomaticPolicy.ON_INITIATION && startsTopic());
  let wanted: VisibilityPolicy | null = null;
  if (await triggered(settingOf(sender.settings, "automatically_follow_topics_policy"))) wanted = VisibilityPolicy.FOLLOWED;
  else if (where.channelMuted && (await triggered(settingOf(sender.settings, "automatically_unmute_topics_in_muted_streams_policy")))) wanted = VisibilityPolicy.UNMUTED;
  if (wanted === null) return null;
  const current = (await findUserTopic(tx, sender.id, where.channelId, where.topic))?.visibilityPolicy ?? VisibilityPolicy.INHERIT;
  return current === wanted || current === VisibilityPolicy.FOLLOWED ? null : { userId: sender.id, policy: wanted };
}

/** Mentioned users (not the sender) who follow topics where they are mentioned and do not yet. */
export async function mentionedTopicPolicyChanges(tx: SendTx, senderId: number, where: TopicInSending, mentionedIds: number[]): Promise<TopicPolicyChange[]> {
  const candidates = mentionedIds.filter((id) => id !== senderId);
  if (candidates.length === 0) return [];
  const followed = new Set(await followersOfTopicAmong(tx, candidates, where.channelId, where.topic));
  return (await settingsOfUsers(tx, candidates))
    .filter((user) => settingOf(user.settings, "automatically_follow_topics_where_mentioned") && !followed.has(user.id))
    .map((user) => ({ userId: user.id, policy: VisibilityPolicy.FOLLOWED }));
}

/** Stores the changes and tells each user's clients. */
export async function applyTopicPolicyChanges(tx: SendTx, where: TopicInSending, changes: TopicPolicyChange[], now: number) {
  for (const { userId, policy } of changes) await setTopicPolicy(tx, userId, where.channelId, where.topic, policy, now);
}
