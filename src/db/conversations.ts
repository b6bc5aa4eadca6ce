import { inArray, sql } from "drizzle-orm";
import { sqlRows } from "./rawSql";
import type { Reader } from "./types";
import { recipients } from "./tables";

/**
 * What a user's conversations hold, for register's message sections: the newest message they
 * received, their direct-message conversations newest first, and who is in each.
 */

/**
 * The newest message the user received, as the reference counts it (messages with a row for
 * the user): channel messages sent while they were subscribed (their subscription periods,
 * db/messageState.ts), their direct-message conversations, and what they sent themselves.
 * Joining or leaving a channel changes none of these, as no event tells a client of such a
 * change. Each part is one index range lookup per period or conversation. Undefined when none.
 */
export async function newestReceivedMessageId(db: Reader, userId: number): Promise<number | undefined> {
  // PostgreSQL before 16 wants a name for every subquery in FROM (the t's here).
  const [row] = await sqlRows<{ newest: number | null }>(db, sql`
    SELECT max(newest) AS newest FROM (
      SELECT (SELECT max(m.id) FROM messages m WHERE m.recipient_id = rc.id AND m.id > p.starts_after AND (p.ends_at IS NULL OR m.id <= p.ends_at)) AS newest
        FROM subscription_periods p JOIN recipients rc ON rc.channel_id = p.channel_id WHERE p.user_id = ${userId}
      UNION ALL SELECT (SELECT max(id) FROM messages WHERE recipient_id = ru.recipient_id) FROM recipient_users ru WHERE ru.user_id = ${userId}
      UNION ALL SELECT max(id) FROM messages WHERE sender_id = ${userId}
    ) t`);
  return row?.newest ?? undefined;
}

/** The user's direct-message conversations that have messages, newest first, at most `limit`: each recipient ID with its newest message ID. */
export async function recentDirectConversations(db: Reader, userId: number, limit: number): Promise<Array<{ id: number; newest: number }>> {
  return await sqlRows<{ id: number; newest: number }>(db, sql`
    SELECT id, newest FROM (
      SELECT recipient_id AS id, (SELECT max(id) FROM messages WHERE recipient_id = ru.recipient_id) AS newest
      FROM recipient_users ru WHERE user_id = ${userId}
    ) t WHERE newest IS NOT NULL ORDER BY newest DESC LIMIT ${limit}`);
}

/** The other members of each of the user's direct-message conversations, by recipient ID, in user ID order. */
export async function otherMembersOfDirectConversations(db: Reader, userId: number): Promise<Array<{ recipientId: number; userId: number }>> {
  return (
    await sqlRows<{ recipient_id: number; user_id: number }>(db, sql`
      SELECT recipient_id, user_id FROM recipient_users
      WHERE recipient_id IN (SELECT recipient_id FROM recipient_users WHERE user_id = ${userId}) AND user_id != ${userId}
      ORDER BY user_id`)
  ).map((row) => ({ recipientId: row.recipient_id, userId: row.user_id }));
}

/** Sorted participant IDs of these direct-message conversations, by recipient ID. */
export async function directParticipants(db: Reader, recipientIds: number[]): Promise<Map<number, number[]>> {
  if (recipientIds.length === 0) return new Map();
  const rows = await db.select({ id: recipients.id, dmKey: recipients.dmKey }).from(recipients).where(inArray(recipients.id, recipientIds));
  return new Map(rows.map((row) => [row.id, (row.dmKey ?? "").split(",").filter(Boolean).map(Number)]));
}
