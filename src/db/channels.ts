import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { cacheChanged } from "./caches";
import { dialect } from "./dialect";
import { isFalse, isTrue, postgresTuples } from "./dialectSql";
import { runSql, sqlValues } from "./rawSql";
import { idList } from "./sqlLists";
import type { Reader, SendTx, Tx } from "./types";
import { channels, defaultChannels, subscriptions } from "./tables";

export type Channel = typeof channels.$inferSelect;
export type NewChannel = typeof channels.$inferInsert;

export type Subscription = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;

export const channelNameKey = (name: string) => name.toLowerCase();

export async function findChannelById(db: Reader, id: number): Promise<Channel | undefined> {
  return (await db.select().from(channels).where(eq(channels.id, id)))[0];
}

export async function findChannelByName(db: Reader, name: string): Promise<Channel | undefined> {
  return (await db.select().from(channels).where(eq(channels.nameKey, channelNameKey(name))))[0];
}

export async function findChannelsByNames(db: Reader, names: string[]): Promise<Channel[]> {
  if (names.length === 0) return [];
  return await db.select().from(channels).where(inArray(channels.nameKey, names.map(channelNameKey)));
}

export async function listChannels(db: Reader, options: { includeArchived: boolean }): Promise<Channel[]> {
  const query = db.select().from(channels);
  return await (options.includeArchived ? query : query.where(eq(channels.isArchived, false))).orderBy(asc(channels.id));
}

export async function insertChannel(tx: Tx, values: NewChannel): Promise<Channel> {
  return (await tx.insert(channels).values(values).returning())[0];
}

export async function updateChannel(tx: Tx, id: number, changes: Partial<NewChannel>): Promise<Channel> {
  return (await tx.update(channels).set(changes).where(eq(channels.id, id)).returning())[0]!;
}

/** The one change to a channel a message send makes (its first message), so it may run in one. */
export async function setFirstMessageId(tx: SendTx, id: number, firstMessageId: number | null) {
  await tx.update(channels).set({ firstMessageId }).where(eq(channels.id, id));
  cacheChanged("channelsForSending");
}

export async function findSubscription(db: Reader, userId: number, channelId: number): Promise<Subscription | undefined> {
  return (await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.channelId, channelId))))[0];
}

/** Every subscription row of a user, active or left. */
export async function listSubscriptionsOfUser(db: Reader, userId: number): Promise<Subscription[]> {
  return await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
}

export async function activeChannelIdsOfUser(db: Reader, userId: number): Promise<Set<number>> {
  const rows = await db
    .select({ id: subscriptions.channelId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.active, true)));
  return new Set(rows.map((row) => row.id));
}

/** Subscription rows (active or not) of these users in these channels. */
export async function subscriptionsOf(db: Reader, userIds: number[], channelIds: number[]): Promise<Subscription[]> {
  if (userIds.length === 0 || channelIds.length === 0) return [];
  return await db
    .select()
    .from(subscriptions)
    .where(and(sql`${subscriptions.userId} IN ${idList(userIds)}`, sql`${subscriptions.channelId} IN ${idList(channelIds)}`));
}

/**
 * Active subscribers who are active users, per channel (all channels when none are named),
 * in user ID order. Deactivated users are few, so they are left out here rather than joined
 * against: the subscription index alone answers the rest.
 */
export async function activeSubscriberIds(db: Reader, channelIds?: number[]): Promise<Map<number, number[]>> {
  const result = new Map<number, number[]>((channelIds ?? []).map((id) => [id, []]));
  if (channelIds && channelIds.length === 0) return result;
  const deactivated = new Set((await sqlValues<[number]>(db, sql`SELECT id FROM users WHERE ${isFalse("is_active")}`)).map(([id]) => id));
  const filter = channelIds ? sql`AND channel_id IN ${idList(channelIds)}` : sql``;
  const rows = await sqlValues<[number, number]>(db, sql`SELECT channel_id, user_id FROM subscriptions WHERE ${isTrue("active")} ${filter} ORDER BY channel_id, user_id`);
  for (const [channelId, userId] of rows) {
    if (deactivated.has(userId)) continue;
    let list = result.get(channelId);
    if (!list) result.set(channelId, (list = []));
    list.push(userId);
  }
  return result;
}

/** Colors a user already has, so a new subscription can pick one they do not use yet. */
export async function usedColorsByUser(db: Reader, userIds: number[]): Promise<Map<number, Set<string>>> {
  const result = new Map<number, Set<string>>(userIds.map((id) => [id, new Set()]));
  const rows = await sqlValues<[number, string]>(db, sql`SELECT user_id, color FROM subscriptions WHERE user_id IN ${idList(userIds)}`);
  for (const [userId, color] of rows) result.get(userId)!.add(color);
  return result;
}

/**
 * New subscriptions, many at once: on SQLite one prepared statement, run per row; on PostgreSQL,
 * where each statement is a round trip, one statement over the rows bound as one JSON parameter.
 */
export async function insertSubscriptions(tx: Tx, rows: Array<Pick<NewSubscription, "userId" | "channelId" | "color">>) {
  if (rows.length === 0) return;
  if (dialect() === "postgres") {
    const json = JSON.stringify(rows.map((row) => [row.userId, row.channelId, row.color]));
    const columns = [["user_id", "bigint"], ["channel_id", "bigint"], ["color", "text"]] as const;
    return await runSql(tx, sql`INSERT INTO subscriptions (user_id, channel_id, color) SELECT user_id, channel_id, color FROM ${postgresTuples(json, columns)} t`);
  }
  const insert = tx
    .insert(subscriptions)
    .values({ userId: sql.placeholder("userId"), channelId: sql.placeholder("channelId"), color: sql.placeholder("color") })
    .prepare();
  for (const row of rows) insert.run(row);
}

/** Sets these subscriptions active or not (SQLite: a prepared statement per pair; PostgreSQL: one statement, see insertSubscriptions). */
export async function setSubscriptionsActive(tx: Tx, pairs: Array<{ userId: number; channelId: number }>, active: boolean) {
  if (pairs.length === 0) return;
  if (dialect() === "postgres") {
    const json = JSON.stringify(pairs.map((pair) => [pair.userId, pair.channelId]));
    const pairRows = postgresTuples(json, [["user_id", "bigint"], ["channel_id", "bigint"]]);
    return await runSql(tx, sql`UPDATE subscriptions SET active = ${active} WHERE (user_id, channel_id) IN (SELECT user_id, channel_id FROM ${pairRows} t)`);
  }
  const update = tx
    .update(subscriptions)
    .set({ active })
    .where(and(eq(subscriptions.userId, sql.placeholder("userId")), eq(subscriptions.channelId, sql.placeholder("channelId"))))
    .prepare();
  for (const pair of pairs) update.run(pair);
}

export async function updateSubscription(tx: Tx, userId: number, channelId: number, changes: Partial<NewSubscription>) {
  await tx.update(subscriptions)
    .set(changes)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.channelId, channelId)));
}

export async function defaultChannelIds(db: Reader): Promise<number[]> {
  return (await db
    .select({ id: defaultChannels.channelId })
    .from(defaultChannels)
    .orderBy(asc(defaultChannels.channelId)))
    .map((row) => row.id);
}

/** Returns whether the channel was not a default channel before. */
export async function addDefaultChannel(tx: Tx, channelId: number): Promise<boolean> {
  return (await tx.insert(defaultChannels).values({ channelId }).onConflictDoNothing().returning()).length > 0;
}

/** Returns whether the channel was a default channel. */
export async function removeDefaultChannel(tx: Tx, channelId: number): Promise<boolean> {
  return (await tx.delete(defaultChannels).where(eq(defaultChannels.channelId, channelId)).returning()).length > 0;
}

/** IDs of the channels the user muted (their subscription's is_muted), subscribed now or not. */
export async function mutedChannelIdsOfUser(db: Reader, userId: number): Promise<number[]> {
  return (await db
    .select({ id: subscriptions.channelId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.isMuted, true))))
    .map((row) => row.id);
}

/** The channels with these IDs that exist. */
export async function channelsByIds(db: Reader, ids: number[]): Promise<Channel[]> {
  if (ids.length === 0) return [];
  return await db.select().from(channels).where(inArray(channels.id, ids));
}
