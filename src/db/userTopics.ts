import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { sqlRows } from "./rawSql";
import type { Reader, SendTx } from "./types";
import { userTopics } from "./tables";

/** A user's visibility policy for a topic (reference: update-user-topic). */
export const VisibilityPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;
export type VisibilityPolicy = (typeof VisibilityPolicy)[keyof typeof VisibilityPolicy];

export type UserTopic = typeof userTopics.$inferSelect;

export const topicKeyOf = (topic: string) => topic.toLowerCase();

export async function findUserTopic(db: Reader, userId: number, channelId: number, topic: string): Promise<UserTopic | undefined> {
  return (await db
    .select()
    .from(userTopics)
    .where(and(eq(userTopics.userId, userId), eq(userTopics.channelId, channelId), eq(userTopics.topicKey, topicKeyOf(topic)))))[0];
}

/** Sets a policy (INHERIT removes the row). */
export async function setUserTopic(tx: SendTx, row: Omit<UserTopic, "topicKey">) {
  const key = { userId: row.userId, channelId: row.channelId, topicKey: topicKeyOf(row.topic) };
  if (row.visibilityPolicy === VisibilityPolicy.INHERIT) {
    await tx.delete(userTopics)
      .where(and(eq(userTopics.userId, key.userId), eq(userTopics.channelId, key.channelId), eq(userTopics.topicKey, key.topicKey)));
    return;
  }
  const values = { ...row, ...key };
  await tx.insert(userTopics)
    .values(values)
    .onConflictDoUpdate({ target: [userTopics.userId, userTopics.channelId, userTopics.topicKey], set: values });
}

export async function listUserTopicsOf(db: Reader, userId: number): Promise<UserTopic[]> {
  return await db
    .select()
    .from(userTopics)
    .where(and(eq(userTopics.userId, userId), ne(userTopics.visibilityPolicy, VisibilityPolicy.INHERIT)))
    .orderBy(asc(userTopics.channelId), asc(userTopics.topicKey));
}

/** [channel name, topic, muted at] for each topic the user muted, oldest first (the legacy muted_topics). */
export async function mutedTopicsOf(db: Reader, userId: number): Promise<Array<[string, string, number]>> {
  return (
    await sqlRows<{ name: string; topic: string; last_updated: number }>(
      db,
      sql`SELECT c.name, ut.topic, ut.last_updated FROM user_topics ut JOIN channels c ON c.id = ut.channel_id
          WHERE ut.user_id = ${userId} AND ut.visibility_policy = ${VisibilityPolicy.MUTED} ORDER BY ut.last_updated, ut.channel_id, ut.topic_key`,
    )
  ).map((row) => [row.name, row.topic, row.last_updated]);
}

/** Those of these users who follow the topic. */
export async function followersOfTopicAmong(db: Reader, userIds: number[], channelId: number, topic: string): Promise<number[]> {
  return (await db
    .select({ userId: userTopics.userId })
    .from(userTopics)
    .where(and(inArray(userTopics.userId, userIds), eq(userTopics.channelId, channelId), eq(userTopics.topicKey, topicKeyOf(topic)), eq(userTopics.visibilityPolicy, VisibilityPolicy.FOLLOWED))))
    .map((row) => row.userId);
}

/** Each of these users' visibility policy for the topic (users without one left out). */
export async function topicPoliciesAmong(db: Reader, userIds: number[], channelId: number, topic: string): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: userTopics.userId, policy: userTopics.visibilityPolicy })
    .from(userTopics)
    .where(and(inArray(userTopics.userId, userIds), eq(userTopics.channelId, channelId), eq(userTopics.topicKey, topicKeyOf(topic))));
  return new Map(rows.map((row) => [row.userId, row.policy]));
}
