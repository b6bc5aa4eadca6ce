import { accessChannel } from "../access/channels";
import { findChannelByName } from "../db/channels";
import { getRealm } from "../db/realm";
import { write } from "../db/transaction";
import type { SendTx } from "../db/types";
import type { User } from "../db/users";
import { findUserTopic, mutedTopicsOf, setUserTopic, VisibilityPolicy } from "../db/userTopics";
import { badRequest } from "../http/errors";
import { now } from "../model/clock";
import { normalizeTopic } from "../messages/content";

/**
 * A user's own per-topic visibility (muted, unmuted, followed): POST /user_topics and its
 * deprecated predecessor PATCH /users/me/subscriptions/muted_topics. Only the user's own
 * clients are told: user_topic events, and the legacy muted_topics list when it changed.
 */

const POLICIES = new Set<number>(Object.values(VisibilityPolicy));

export async function updateUserTopic(user: User, input: { stream_id: number; topic: string; visibility_policy: number }) {
  if (!POLICIES.has(input.visibility_policy)) throw badRequest("Invalid visibility_policy");
  await write(async (tx) => {
    const { channel } = await accessChannel(tx, user, input.stream_id, "content");
    // Topics are stored and compared as messages store them: "(no topic)" is the empty topic.
    const topic = normalizeTopic(input.topic, { ...(await getRealm(tx)).settings, mandatory_topics: false });
    await setTopicPolicy(tx, user.id, channel.id, topic, input.visibility_policy as VisibilityPolicy);
  });
}

export async function muteTopicLegacy(user: User, input: { stream_id?: number; stream?: string; topic: string; op: "add" | "remove" }) {
  if ((input.stream_id === undefined) === (input.stream === undefined)) throw badRequest("Please choose one: 'stream' or 'stream_id'.");
  await write(async (tx) => {
    const channelId = input.stream_id ?? (await findChannelByName(tx, input.stream!))?.id ?? 0;
    const { channel } = await accessChannel(tx, user, channelId, "content");
    const topic = normalizeTopic(input.topic, { ...(await getRealm(tx)).settings, mandatory_topics: false });
    await setTopicPolicy(tx, user.id, channel.id, topic, input.op === "add" ? VisibilityPolicy.MUTED : VisibilityPolicy.INHERIT);
  });
}

/**
 * Stores a policy and tells the user's clients; a no-op changes nothing and says nothing.
 * Also used by sends that follow or unmute topics automatically.
 */
export async function setTopicPolicy(tx: SendTx, userId: number, channelId: number, topic: string, policy: VisibilityPolicy, at = now()) {
  const before = await findUserTopic(tx, userId, channelId, topic);
  const previous = before?.visibilityPolicy ?? VisibilityPolicy.INHERIT;
  if (previous === policy) return;
  await setUserTopic(tx, { userId, channelId, topic, visibilityPolicy: policy, lastUpdated: at });
  tx.emit({ type: "user_topic", stream_id: channelId, topic_name: topic, last_updated: at, visibility_policy: policy }, [userId]);
  if (previous === VisibilityPolicy.MUTED || policy === VisibilityPolicy.MUTED) {
    tx.emit({ type: "muted_topics", muted_topics: await mutedTopicsOf(tx, userId) }, [userId]);
  }
}
