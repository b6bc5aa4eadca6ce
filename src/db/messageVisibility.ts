import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { Flag } from "./messages";
import { type MessageKey, type SubscriptionPeriod } from "./messageState";
import type { Reader } from "./types";
import { messages, recipientUsers, subscriptionPeriods } from "./tables";
import { sqlRows } from "./rawSql";
import { idList } from "./sqlLists";

/**
 * The queries behind "which messages may this user read" (the rules themselves are
 * access/messageReading.ts's): what a user received, the conversations they are in, and
 * conditions on `messages` for narrows to build on.
 */

/**
 * Messages the user received or starred, as a condition on `messages`: their personal history,
 * which narrows without a readable channel search (as in the reference). Evaluated row by row
 * (a user may have starred many thousands of messages), so a query in ID order can stop early.
 */
export function receivedSql(userId: number): SQL {
  return sql`(${messages.recipientId} IN (SELECT recipient_id FROM recipient_users WHERE user_id = ${userId})
    OR ${messages.senderId} = ${userId}
    OR EXISTS (SELECT 1 FROM subscription_periods p WHERE p.user_id = ${userId} AND p.channel_id = ${messages.channelId}
               AND ${messages.id} > p.starts_after AND (p.ends_at IS NULL OR ${messages.id} <= p.ends_at))
    OR (coalesce((SELECT flags FROM message_flags WHERE user_id = ${userId} AND message_id = ${messages.id}), 0) & ${Flag.STARRED}) != 0)`;
}

/** Messages the user received or starred, or in one of these channels, as a condition on `messages`. */
export function receivedOrInChannelsSql(userId: number, channelIds: number[]): SQL {
  if (channelIds.length === 0) return receivedSql(userId);
  return sql`(${receivedSql(userId)} OR ${inArray(messages.channelId, channelIds)})`;
}

/** Who and where of the messages with these IDs that exist, in ID order: what per-user state needs. */
export async function messageKeysByIds(db: Reader, ids: number[]): Promise<MessageKey[]> {
  if (ids.length === 0) return [];
  return (
    await sqlRows<{ id: number; recipient_id: number; channel_id: number | null; sender_id: number }>(
      db,
      sql`SELECT id, recipient_id, channel_id, sender_id FROM messages WHERE id IN ${idList(ids)} ORDER BY id`,
    )
  ).map((row) => ({ id: row.id, recipientId: row.recipient_id, channelId: row.channel_id, senderId: row.sender_id }));
}

/** Of these direct-message conversations (recipient IDs), the ones the user takes part in. */
export async function conversationsOfUserAmong(db: Reader, userId: number, recipientIds: number[]): Promise<number[]> {
  if (recipientIds.length === 0) return [];
  return (await db
    .select({ id: recipientUsers.recipientId })
    .from(recipientUsers)
    .where(and(eq(recipientUsers.userId, userId), inArray(recipientUsers.recipientId, recipientIds))))
    .map((row) => row.id);
}

/** The participants of a direct-message conversation. */
export async function conversationMemberIds(db: Reader, recipientId: number): Promise<number[]> {
  return (await db
    .select({ userId: recipientUsers.userId })
    .from(recipientUsers)
    .where(eq(recipientUsers.recipientId, recipientId)))
    .map((row) => row.userId);
}

/** Every subscription period of a channel, of every user: who received which of its messages. */
export async function channelSubscriptionPeriods(db: Reader, channelId: number): Promise<SubscriptionPeriod[]> {
  return await db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.channelId, channelId));
}
