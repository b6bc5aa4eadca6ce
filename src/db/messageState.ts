import { and, eq, type SQL, sql } from "drizzle-orm";
import { activeChannelIdsOfUser } from "./channels";
import { Flag, type Message } from "./messages";
import { dialect } from "./dialect";
import { isTrue, larger, postgresTuples, sqlFalse, sqlTrue } from "./dialectSql";
import { runSql, sqlRows } from "./rawSql";
import { idList } from "./sqlLists";
import type { Reader, Tx, UpkeepTx } from "./types";
import { messageFlags, messages, readMarks, subscriptionPeriods } from "./tables";

export type SubscriptionPeriod = typeof subscriptionPeriods.$inferSelect;

/** What per-user state is computed from: a message's identity and conversation. */
export type MessageKey = Pick<Message, "id" | "recipientId" | "channelId" | "senderId">;

export interface UserChannel {
  userId: number;
  channelId: number;
}

// Reads on the history path are SQL templates rather than the query builder, which costs
// more to build than these indexed lookups take to run; lists travel as one JSON parameter (sqlLists.ts).
// Where the dialects differ (JSON, booleans, max of two), SQLite's text is as it always was and
// PostgreSQL's is built beside it (db/dialectSql.ts).

/** The newest message ID, or 0 before the first message. */
export async function maxMessageId(db: Reader): Promise<number> {
  return (await sqlRows<{ id: number | null }>(db, sql`SELECT max(id) AS id FROM messages`))[0]?.id ?? 0;
}

export async function channelRecipientIds(db: Reader, channelIds: number[]): Promise<Map<number, number>> {
  if (channelIds.length === 0) return new Map();
  const rows = await sqlRows<{ id: number; channel_id: number }>(db, sql`SELECT id, channel_id FROM recipients WHERE channel_id IN ${idList(channelIds)}`);
  return new Map(rows.map((row) => [row.channel_id, row.id]));
}

// ---- Subscription periods and read marks ----
// Joining and leaving can concern many thousands of pairs in one call, so these are
// set-based statements over the pairs passed as one JSON parameter.

const pairsJson = (pairs: UserChannel[]) => JSON.stringify(pairs.map(({ userId, channelId }) => [userId, channelId]));
/** The pairs as rows (user_id, channel_id): a subquery, which PostgreSQL wants named where it is selected from. */
const pairRows = (pairs: UserChannel[]) =>
  dialect() === "postgres"
    ? postgresTuples(pairsJson(pairs), [["user_id", "bigint"], ["channel_id", "bigint"]])
    : sql`(SELECT json_extract(value, '$[0]') AS user_id, json_extract(value, '$[1]') AS channel_id FROM json_each(${pairsJson(pairs)}))`;
/**
 * The pairs with their channels' recipients (channels without one have no messages yet). CROSS
 * JOIN keeps the pairs SQLite's outer loop, each finding its recipient by index; PostgreSQL's
 * CROSS JOIN takes no ON, and its planner chooses the order itself.
 */
const pairRecipients = (pairs: UserChannel[]) =>
  dialect() === "postgres"
    ? sql`(SELECT p.user_id AS user_id, r.id AS recipient_id FROM ${pairRows(pairs)} p JOIN recipients r ON r.channel_id = p.channel_id)`
    : sql`(SELECT p.user_id AS user_id, r.id AS recipient_id FROM ${pairRows(pairs)} p CROSS JOIN recipients r ON r.channel_id = p.channel_id)`;

/** Puts each pair's read mark at `upTo` at least; a mark never moves down. */
async function raiseChannelMarks(db: Reader, pairs: UserChannel[], upTo: number) {
  await runSql(db, sql`INSERT INTO read_marks (user_id, recipient_id, read_up_to)
    SELECT user_id, recipient_id, ${bigintValue(upTo)} FROM ${pairRecipients(pairs)} pr WHERE true
    ON CONFLICT (user_id, recipient_id) DO UPDATE SET read_up_to = ${higherMark()}`);
}

/**
 * A read mark's new value on conflict: the higher of the stored and the proposed (the column
 * named with its table: PostgreSQL's SET sees the proposed row too, as `excluded`).
 */
const higherMark = () => (dialect() === "postgres" ? larger(sql`read_marks.read_up_to`, sql`excluded.read_up_to`) : sql`max(read_up_to, excluded.read_up_to)`);

/** An ID selected into an INSERT: PostgreSQL types a bare parameter in a SELECT list as text. */
function bigintValue(value: number) {
  return dialect() === "postgres" ? sql`${value}::bigint` : sql`${value}`;
}

/** Opens a period for each pair and puts its read mark at the newest message. */
export async function recordSubscribed(tx: Tx, pairs: UserChannel[]) {
  if (pairs.length === 0) return;
  const newest = await maxMessageId(tx);
  // Left and rejoined with no message in between: the same period goes on.
  await runSql(tx, sql`INSERT INTO subscription_periods (user_id, channel_id, starts_after, ends_at)
    SELECT user_id, channel_id, ${bigintValue(newest)}, NULL FROM ${pairRows(pairs)} pr WHERE true
    ON CONFLICT (user_id, channel_id, starts_after) DO UPDATE SET ends_at = NULL`);
  await raiseChannelMarks(tx, pairs, newest);
}

/** Closes each pair's period and marks the channel read, hand-set unread marks included. */
export async function recordUnsubscribed(tx: Tx, pairs: UserChannel[]) {
  if (pairs.length === 0) return;
  const newest = await maxMessageId(tx);
  await runSql(tx, sql`UPDATE subscription_periods SET ends_at = ${newest}
    WHERE ends_at IS NULL AND (user_id, channel_id) IN (SELECT user_id, channel_id FROM ${pairRows(pairs)} pr)`);
  await raiseChannelMarks(tx, pairs, newest);
  const bits = Flag.READ | Flag.UNREAD;
  await runSql(tx, sql`UPDATE message_flags SET flags = flags & ${~bits}
    WHERE (flags & ${bits}) != 0 AND (user_id, recipient_id) IN (SELECT user_id, recipient_id FROM ${pairRecipients(pairs)} pr)`);
  await runSql(tx, sql`DELETE FROM message_flags WHERE flags = 0 AND user_id IN (SELECT user_id FROM ${pairRows(pairs)} pr)`);
}

/** Per user, their unread messages in the channels of the pairs (what leaving them marks read). */
export async function unreadInChannels(db: Reader, pairs: UserChannel[]): Promise<Map<number, number[]>> {
  const result = new Map<number, number[]>();
  if (pairs.length === 0) return result;
  const rows = await sqlRows<{ user_id: number; id: number }>(db, sql`
    SELECT c.user_id, m.id FROM ${pairRecipients(pairs)} c
      JOIN messages m ON m.recipient_id = c.recipient_id
        AND m.id > coalesce((SELECT read_up_to FROM read_marks WHERE user_id = c.user_id AND recipient_id = c.recipient_id), 0)
      WHERE m.id NOT IN (SELECT message_id FROM message_flags WHERE user_id = c.user_id AND recipient_id = c.recipient_id AND (flags & ${Flag.READ}) != 0)
    UNION
    SELECT f.user_id, f.message_id FROM ${pairRecipients(pairs)} c
      JOIN message_flags f ON f.user_id = c.user_id AND f.recipient_id = c.recipient_id
      WHERE (f.flags & ${Flag.UNREAD}) != 0 AND (f.flags & ${Flag.READ}) = 0
    ORDER BY 1, 2`);
  for (const row of rows) (result.get(row.user_id) ?? result.set(row.user_id, []).get(row.user_id)!).push(row.id);
  return result;
}

/** Moves a read mark up to `upTo`; a mark never moves down. */
export async function raiseMark(tx: Tx, userId: number, recipientId: number, upTo: number) {
  await tx.insert(readMarks)
    .values({ userId, recipientId, readUpTo: upTo })
    .onConflictDoUpdate({ target: [readMarks.userId, readMarks.recipientId], set: { readUpTo: dialect() === "postgres" ? larger(sql`${readMarks.readUpTo}`, sql`excluded.read_up_to`) : sql`max(${readMarks.readUpTo}, excluded.read_up_to)` } });
}

export async function marksOf(db: Reader, userId: number, recipientIds: number[]): Promise<Map<number, number>> {
  if (recipientIds.length === 0) return new Map();
  const rows = await sqlRows<{ recipient_id: number; read_up_to: number }>(
    db,
    sql`SELECT recipient_id, read_up_to FROM read_marks WHERE user_id = ${userId} AND recipient_id IN ${idList(recipientIds)}`,
  );
  return new Map(rows.map((row) => [row.recipient_id, row.read_up_to]));
}

/** A user's subscription periods in these channels. */
export async function periodsOf(db: Reader, userId: number, channelIds: number[]): Promise<SubscriptionPeriod[]> {
  if (channelIds.length === 0) return [];
  return (
    await sqlRows<{ channel_id: number; starts_after: number; ends_at: number | null }>(
      db,
      sql`SELECT channel_id, starts_after, ends_at FROM subscription_periods WHERE user_id = ${userId} AND channel_id IN ${idList(channelIds)}`,
    )
  ).map((row) => ({ userId, channelId: row.channel_id, startsAfter: row.starts_after, endsAt: row.ends_at }));
}

// ---- Flag rows ----

/** Stored flag bits of a user for these messages (absent: 0). */
export async function bitsOf(db: Reader, userId: number, messageIds: number[]): Promise<Map<number, number>> {
  if (messageIds.length === 0) return new Map();
  const rows = await sqlRows<{ message_id: number; flags: number }>(
    db,
    sql`SELECT message_id, flags FROM message_flags WHERE user_id = ${userId} AND message_id IN ${idList(messageIds)}`,
  );
  return new Map(rows.map((row) => [row.message_id, row.flags]));
}

/** Stores a user's bits for messages (a row only while some bit is set): two statements however many. */
export async function storeBits(tx: Tx, userId: number, changes: Array<{ message: MessageKey; bits: number }>) {
  await storeBitsOfUsers(tx, changes.map((change) => ({ userId, ...change })));
}

/** storeBits for several users' messages at once. */
export async function storeBitsOfUsers(tx: Tx | UpkeepTx, changes: Array<{ userId: number; message: MessageKey; bits: number }>) {
  const cleared = changes.filter((change) => change.bits === 0).map((change) => [change.userId, change.message.id]);
  const kept = changes.filter((change) => change.bits !== 0).map(({ userId, message, bits }) => [userId, message.id, message.recipientId, bits]);
  const postgres = dialect() === "postgres";
  if (cleared.length > 0) {
    const json = JSON.stringify(cleared);
    await runSql(tx, postgres
      ? sql`DELETE FROM message_flags WHERE (user_id, message_id) IN
          (SELECT user_id, message_id FROM ${postgresTuples(json, [["user_id", "bigint"], ["message_id", "bigint"]])} t)`
      : sql`DELETE FROM message_flags WHERE (user_id, message_id) IN
      (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${json}))`);
  }
  if (kept.length === 0) return;
  const json = JSON.stringify(kept);
  if (postgres) {
    const rows = postgresTuples(json, [["user_id", "bigint"], ["message_id", "bigint"], ["recipient_id", "bigint"], ["flags", "bigint"]]);
    return await runSql(tx, sql`INSERT INTO message_flags (user_id, message_id, recipient_id, flags)
      SELECT user_id, message_id, recipient_id, flags FROM ${rows} t
      ON CONFLICT (user_id, message_id) DO UPDATE SET flags = excluded.flags`);
  }
  await runSql(tx, sql`INSERT INTO message_flags (user_id, message_id, recipient_id, flags)
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]')
    FROM json_each(${json}) WHERE true
    ON CONFLICT (user_id, message_id) DO UPDATE SET flags = excluded.flags`);
}

/** Clears bits on a user's rows matching `where`, deleting rows left without flags. */
export async function clearBits(tx: Tx, userId: number, bits: number, where?: SQL) {
  await tx.update(messageFlags)
    .set({ flags: sql`${messageFlags.flags} & ${~bits}` })
    .where(and(eq(messageFlags.userId, userId), sql`(${messageFlags.flags} & ${bits}) != 0`, where));
  await tx.delete(messageFlags)
    .where(and(eq(messageFlags.userId, userId), eq(messageFlags.flags, 0), where));
}

// ---- Read state ----

/** Everything deciding a user's read state and flags for a batch of messages. */
export interface StateOfMessages {
  bits: Map<number, number>;
  marks: Map<number, number>;
  subscribed: Set<number>;
  periods: SubscriptionPeriod[];
}

/** `subscribed`: the user's active subscriptions, when the caller has them at hand. */
export async function stateOf(db: Reader, userId: number, list: MessageKey[], subscribed?: Set<number>): Promise<StateOfMessages> {
  const channelIds = [...new Set(list.flatMap((m) => (m.channelId === null ? [] : [m.channelId])))];
  return {
    bits: await bitsOf(db, userId, list.map((m) => m.id)),
    marks: await marksOf(db, userId, [...new Set(list.map((m) => m.recipientId))]),
    subscribed: subscribed ?? (await activeChannelIdsOfUser(db, userId)),
    periods: await periodsOf(db, userId, channelIds),
  };
}

/** Whether the message is read: an exception bit, else the mark; unsubscribed channels are all read. */
export function isRead(state: StateOfMessages, message: MessageKey): boolean {
  const bits = state.bits.get(message.id) ?? 0;
  if (bits & Flag.READ) return true;
  if (bits & Flag.UNREAD) return false;
  if (message.channelId !== null && !state.subscribed.has(message.channelId)) return true;
  return message.id <= (state.marks.get(message.recipientId) ?? 0);
}

/** Whether the user received the message (sent, or was subscribed or a participant when it was sent). */
export function wasReceived(periods: SubscriptionPeriod[], userId: number, message: MessageKey): boolean {
  if (message.channelId === null || message.senderId === userId) return true;
  return inPeriods(periods, message.channelId, message.id);
}

/** Whether a channel message was sent during one of the periods. */
export const inPeriods = (periods: SubscriptionPeriod[], channelId: number, messageId: number) =>
  periods.some((period) => period.channelId === channelId && messageId > period.startsAfter && (period.endsAt === null || messageId <= period.endsAt));

/** Whether marking the message unread is allowed: unread messages live only in subscribed channels and DMs. */
export const canBeUnread = (state: StateOfMessages, message: MessageKey) => message.channelId === null || state.subscribed.has(message.channelId);

/**
 * After read bits were set above a mark, moves the mark up over the read prefix and drops
 * the READ bits it now covers, so exception rows stay few.
 */
export async function advanceMarks(tx: Tx, userId: number, recipientIds: Iterable<number>) {
  for (const recipientId of new Set(recipientIds)) {
    const mark = (await marksOf(tx, userId, [recipientId])).get(recipientId) ?? 0;
    const [row] = await sqlRows<{ first_unread: number | null; newest: number | null }>(tx, sql`
      SELECT
        (SELECT m.id FROM messages m WHERE m.recipient_id = ${recipientId} AND m.id > ${mark}
           AND NOT EXISTS (SELECT 1 FROM message_flags f WHERE f.user_id = ${userId} AND f.message_id = m.id AND (f.flags & ${Flag.READ}) != 0)
           ORDER BY m.id LIMIT 1) AS first_unread,
        (SELECT max(id) FROM messages WHERE recipient_id = ${recipientId}) AS newest`);
    const upTo = row?.first_unread != null ? row.first_unread - 1 : (row?.newest ?? mark);
    if (upTo <= mark) continue;
    await raiseMark(tx, userId, recipientId, upTo);
    await clearBits(tx, userId, Flag.READ, and(eq(messageFlags.recipientId, recipientId), sql`${messageFlags.messageId} <= ${upTo}`));
  }
}

/**
 * Whether a row of `messages` is unread for the user, by the same rules as isRead, as a
 * condition SQLite evaluates row by row (a few index lookups each): a query walking messages
 * in ID order stops once it has enough, where building the set of every unread message first
 * took as long as the user has unread messages.
 */
export function unreadSql(userId: number): SQL {
  const bits = sql`coalesce((SELECT flags FROM message_flags WHERE user_id = ${userId} AND message_id = ${messages.id}), 0)`;
  const inConversation = sql`(${messages.recipientId} IN (SELECT recipient_id FROM recipient_users WHERE user_id = ${userId})
    OR ${messages.channelId} IN (SELECT channel_id FROM subscriptions WHERE user_id = ${userId} AND ${isTrue("active")}))`;
  const aboveMark = sql`${messages.id} > coalesce((SELECT read_up_to FROM read_marks WHERE user_id = ${userId} AND recipient_id = ${messages.recipientId}), 0)`;
  return sql`(CASE ${bits} & ${Flag.READ | Flag.UNREAD} WHEN 0 THEN ${inConversation} AND ${aboveMark} WHEN ${Flag.UNREAD} THEN ${sqlTrue()} ELSE ${sqlFalse()} END)`;
}

/**
 * The lowest message ID that can be unread for the user: one above the lowest read mark of
 * their conversations, or the lowest marked unread by hand; past every message when neither.
 */
export async function lowestPossiblyUnreadId(db: Reader, userId: number): Promise<number> {
  const [row] = await sqlRows<{ low: number | null }>(db, sql`SELECT min(low) AS low FROM (
      SELECT coalesce((SELECT read_up_to FROM read_marks WHERE user_id = ${userId} AND recipient_id = t.rid), 0) + 1 AS low FROM (
          SELECT recipient_id AS rid FROM recipient_users WHERE user_id = ${userId}
          UNION ALL
          SELECT r.id FROM subscriptions s JOIN recipients r ON r.channel_id = s.channel_id WHERE s.user_id = ${userId} AND ${isTrue("s.active")}
        ) t
      UNION ALL
      SELECT min(message_id) FROM message_flags WHERE user_id = ${userId} AND (flags & ${Flag.UNREAD}) != 0
    ) lows`);
  return row?.low ?? (await maxMessageId(db)) + 1;
}

/** An unread message with what unread listings need. */
export interface UnreadRow {
  id: number;
  recipientId: number;
  channelId: number | null;
  topic: string;
  topicKey: string;
  senderId: number;
  bits: number;
}

/**
 * The user's unread messages (optionally only those matching `where`, a condition on
 * `messages`), newest first, or oldest first with `oldestFirst`.
 */
export async function listUnread(db: Reader, userId: number, options: { where?: SQL; limit?: number; oldestFirst?: boolean } = {}): Promise<UnreadRow[]> {
  const rows = await sqlRows<{ id: number; recipient_id: number; channel_id: number | null; topic: string; topic_key: string; sender_id: number; bits: number | null }>(db, sql`
    SELECT messages.id, messages.recipient_id, messages.channel_id, messages.topic, messages.topic_key, messages.sender_id, f.flags AS bits
    FROM messages LEFT JOIN message_flags f ON f.user_id = ${userId} AND f.message_id = messages.id
    WHERE ${unreadSql(userId)} ${options.where ? sql`AND ${options.where}` : sql``}
    ORDER BY messages.id ${options.oldestFirst ? sql`ASC` : sql`DESC`} ${options.limit !== undefined ? sql`LIMIT ${options.limit}` : sql``}`);
  return rows.map((row) => ({
    id: row.id,
    recipientId: row.recipient_id,
    channelId: row.channel_id,
    topic: row.topic,
    topicKey: row.topic_key,
    senderId: row.sender_id,
    bits: row.bits ?? 0,
  }));
}

/** IDs of the messages the user starred, oldest first. */
export async function starredIds(db: Reader, userId: number): Promise<number[]> {
  return (await db
    .select({ id: messageFlags.messageId })
    .from(messageFlags)
    .where(and(eq(messageFlags.userId, userId), sql`(${messageFlags.flags} & ${Flag.STARRED}) != 0`))
    .orderBy(messageFlags.messageId))
    .map((row) => row.id);
}

/** Marks everything read: every conversation the user can have unread messages in, up to `upTo`. */
export async function markEverythingRead(tx: Tx, userId: number, upTo: number) {
  const [user, mark] = [bigintValue(userId), bigintValue(upTo)];
  await runSql(tx, sql`INSERT INTO read_marks (user_id, recipient_id, read_up_to)
    SELECT ${user}, recipient_id, ${mark} FROM recipient_users WHERE user_id = ${userId}
    UNION
    SELECT ${user}, r.id, ${mark} FROM subscriptions s JOIN recipients r ON r.channel_id = s.channel_id WHERE s.user_id = ${userId} AND ${isTrue("s.active")}
    ON CONFLICT (user_id, recipient_id) DO UPDATE SET read_up_to = ${higherMark()}`);
  await clearBits(tx, userId, Flag.READ | Flag.UNREAD);
}

/**
 * Active users who received the message and have it read (the sender included, as the
 * caller decides who to show), by the same rules as isRead, in one query; never anyone the
 * viewer muted or who muted the viewer. Who received a channel message is whoever was
 * subscribed when it was sent.
 */
export async function usersWhoRead(db: Reader, message: MessageKey, viewerId: number): Promise<Array<{ id: number; sendsReadReceipts: boolean }>> {
  const received =
    message.channelId === null
      ? sql`SELECT user_id FROM recipient_users WHERE recipient_id = ${message.recipientId}`
      : sql`SELECT DISTINCT user_id FROM subscription_periods
            WHERE channel_id = ${message.channelId} AND ${message.id} > starts_after AND (ends_at IS NULL OR ${message.id} <= ends_at)`;
  const unsubscribed =
    message.channelId === null
      ? sqlFalse()
      : sql`NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = r.user_id AND s.channel_id = ${message.channelId} AND ${isTrue("s.active")})`;
  // SQLite takes a number as a condition; PostgreSQL wants a boolean, and gives the setting as one.
  const postgres = dialect() === "postgres";
  const hasBit = (bit: number) => (postgres ? sql`(coalesce(f.flags, 0) & ${bit}) != 0` : sql`coalesce(f.flags, 0) & ${bit}`);
  const sends = postgres ? sql`(u.settings->>'send_read_receipts')::boolean` : sql`json_extract(u.settings, '$.send_read_receipts')`;
  return (
    await sqlRows<{ id: number; sends: number | boolean | null }>(
      db,
      sql`SELECT u.id, ${sends} AS sends
          FROM (${received}) r JOIN users u ON u.id = r.user_id AND ${isTrue("u.is_active")}
          LEFT JOIN message_flags f ON f.user_id = r.user_id AND f.message_id = ${message.id}
          LEFT JOIN read_marks m ON m.user_id = r.user_id AND m.recipient_id = ${message.recipientId}
          WHERE CASE WHEN ${hasBit(Flag.READ)} THEN ${sqlTrue()} WHEN ${hasBit(Flag.UNREAD)} THEN ${sqlFalse()}
                     WHEN ${unsubscribed} THEN ${sqlTrue()} ELSE ${message.id} <= coalesce(m.read_up_to, 0) END
            AND NOT EXISTS (SELECT 1 FROM muted_users mu WHERE (mu.user_id = ${viewerId} AND mu.muted_user_id = r.user_id) OR (mu.user_id = r.user_id AND mu.muted_user_id = ${viewerId}))
          ORDER BY u.id`,
    )
  ).map((row) => ({ id: row.id, sendsReadReceipts: row.sends !== 0 && row.sends !== false }));
}

/** The user's unread messages with from <= ID < to, newest first, at most `limit` (register's unread_msgs walks history down with these). */
export async function listUnreadInIdRange(db: Reader, userId: number, range: { from: number; to: number; limit: number }): Promise<UnreadRow[]> {
  return listUnread(db, userId, { where: sql`${messages.id} >= ${range.from} AND ${messages.id} < ${range.to}`, limit: range.limit });
}

/** Which of these messages are unread for the user, newest first. */
export async function listUnreadAmong(db: Reader, userId: number, messageIds: number[]): Promise<UnreadRow[]> {
  return listUnread(db, userId, { where: sql`${messages.id} IN ${idList(messageIds)}` });
}
