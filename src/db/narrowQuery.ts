import { and, eq, inArray, isNotNull, isNull, not, or, type SQL, sql } from "drizzle-orm";
import { receivedOrInChannelsSql, receivedSql } from "./messageVisibility";
import { ftsAnyExpression, ftsExpression, type IdRange, matchesSql, type SearchQuery } from "./messageSearch";
import { unreadSql } from "./messageState";
import type { Reader } from "./types";
import { VisibilityPolicy } from "./userTopics";
import { channels, messages, subscriptionPeriods } from "./tables";
import { dialect } from "./dialect";
import { isTrue, sqlFalse, sqlTrue } from "./dialectSql";
import { sqlRows } from "./rawSql";
import { idList } from "./sqlLists";

/**
 * The SQL a narrow becomes, and the queries that walk history with it. messages/narrowQuery.ts
 * parses a narrow and resolves what its terms name (channels, users, conversations, searches)
 * into a NarrowFilter, plain data; here that becomes one condition on `messages`, built again
 * for each range of IDs a query looks at.
 */

/** Which messages a narrow's terms filter. */
export type HistoryScope =
  /** Every message (a channel whose history the user may read, all public channels). */
  | { kind: "all" }
  /** The user's personal history: messages they received or starred. */
  | { kind: "received" }
  /** Everything the user may read: their personal history and these channels' whole history. */
  | { kind: "readable"; channelIds: number[] };

/** One term of a narrow, with the names it held resolved to IDs. */
export type NarrowCondition =
  /** A channel's messages; `recipientId` is the channel's recipient, if it has one yet. */
  | { kind: "channel"; channelId: number; recipientId: number | undefined }
  | { kind: "channels"; which: "public" | "web-public" }
  /** A topic, by its key (db/userTopics.ts topicKeyOf). */
  | { kind: "topic"; topicKey: string }
  | { kind: "sender"; userId: number }
  /** One conversation's messages; `undefined`: a conversation that does not exist (nothing). */
  | { kind: "conversation"; recipientId: number | undefined }
  /** Direct messages of every conversation the user takes part in. */
  | { kind: "conversationsOf"; userId: number }
  | { kind: "id"; messageId: number }
  /** Direct messages. */
  | { kind: "direct" }
  /** Messages the narrowing user has any of these flag bits on. */
  | { kind: "flagged"; bits: number }
  | { kind: "unread" }
  /** Channel messages whose topic starts so (resolved topics). */
  | { kind: "topicPrefix"; prefix: string }
  | { kind: "followed" }
  | { kind: "muted" }
  /** The reference's in:home: everything not muted. */
  | { kind: "notMuted" }
  | { kind: "has"; what: "link" | "image" | "attachment" | "reaction" }
  | { kind: "nothing" }
  | { kind: "everything" };

/** A narrow as data: what the user narrowed to, with names resolved. */
export interface NarrowFilter {
  /** Who narrows: per-user terms (flags, unread, muted) are theirs. */
  userId: number;
  scope: HistoryScope;
  /** Every term but the searches, in order. */
  terms: Array<{ condition: NarrowCondition; negated: boolean }>;
  /**
   * The positive search terms, kept apart so that a history query can walk the full-text
   * index newest first instead of collecting every match. `recipientId`: the one conversation
   * a positive channel or dm term limits the narrow to, whose messages alone are searched.
   */
  search: { query: SearchQuery; recipientId: number | undefined } | null;
  /** Excluded searches: one full-text lookup ("none of these"), however many there are. */
  excluded: SearchQuery[];
  /** Only the messages unread for the user (looking for the first unread one). */
  unreadOnly?: boolean;
}

/**
 * The narrow's terms but the positive searches, as a condition on the messages with IDs in
 * `range`. Full-text lookups of excluded searches look only there, so what a query costs
 * follows the range it is asked about, not the size of the index.
 */
function whereSql(db: Reader, filter: NarrowFilter, range: IdRange): SQL {
  let where = termsSql(db, filter);
  if (filter.excluded.length > 0) where = and(where, not(matchesSql(ftsAnyExpression(filter.excluded), range)))!;
  if (filter.unreadOnly) where = and(where, unreadSql(filter.userId))!;
  return where;
}

// Built once per filter: history is walked one query per stride of IDs, and building the
// condition (a long list of readable channels, say) need not be repeated for each.
const builtTerms = new WeakMap<NarrowFilter, SQL>();

/** The scope and the terms, which do not depend on the range. */
function termsSql(db: Reader, filter: NarrowFilter): SQL {
  let built = builtTerms.get(filter);
  if (built === undefined) {
    const hasTopic = filter.terms.some((term) => term.condition.kind === "topic" && !term.negated);
    const conditions = filter.terms.map((term) => {
      const condition = conditionSql(db, filter.userId, term.condition, hasTopic);
      return term.negated ? not(condition) : condition;
    });
    builtTerms.set(filter, (built = and(scopeSql(filter.userId, filter.scope), ...conditions)!));
  }
  return built;
}

/** The positive searches as one FTS5 MATCH expression. */
const matchOf = (filter: NarrowFilter) => (filter.search ? ftsExpression(filter.search.query, filter.search.recipientId) : null);

/** The whole narrow as one condition on `messages`, for the messages with IDs in `range`. */
function matchingSql(db: Reader, filter: NarrowFilter, range: IdRange): SQL {
  const match = matchOf(filter);
  return and(sql`${messages.id} >= ${range.from} AND ${messages.id} < ${range.to}`, whereSql(db, filter, range), match ? matchesSql(match, range) : undefined)!;
}

/** Which of these message IDs (in ascending order) match the narrow, in one query. */
export async function narrowMatchingIds(db: Reader, filter: NarrowFilter, ascending: number[]): Promise<number[]> {
  if (ascending.length === 0) return [];
  const range = { from: ascending[0], to: ascending[ascending.length - 1] + 1 };
  return (await sqlRows<{ id: number }>(db, sql`SELECT id FROM messages WHERE ${matchingSql(db, filter, range)} AND id IN ${idList(ascending)} ORDER BY id`)).map((row) => row.id);
}

/** Up to `limit` IDs of messages in `range` matching the narrow, in ID order (`order`). */
export async function narrowIdsInRange(db: Reader, filter: NarrowFilter, range: IdRange, order: "ASC" | "DESC", limit: number): Promise<number[]> {
  const direction = sql.raw(order);
  const match = matchOf(filter);
  // A search walks the full-text index within the range and stops at `limit` hits, rather
  // than collecting every message with the word first. PostgreSQL has no messages_fts: its
  // search is the condition matchesSql (db/messageSearch.ts) gives for the dialect.
  const statement = match && dialect() === "postgres"
    ? sql`SELECT id FROM messages WHERE ${matchesSql(match, range)} AND ${whereSql(db, filter, range)} AND id >= ${range.from} AND id < ${range.to} ORDER BY id ${direction} LIMIT ${limit}`
    : match
    ? sql`SELECT messages.id AS id FROM messages_fts CROSS JOIN messages ON messages.id = messages_fts.rowid
          WHERE messages_fts MATCH ${match} AND messages_fts.rowid >= ${range.from} AND messages_fts.rowid < ${range.to} AND ${whereSql(db, filter, range)}
          ORDER BY messages_fts.rowid ${direction} LIMIT ${limit}`
    : sql`SELECT id FROM messages WHERE ${whereSql(db, filter, range)} AND id >= ${range.from} AND id < ${range.to} ORDER BY id ${direction} LIMIT ${limit}`;
  return (await sqlRows<{ id: number }>(db, statement)).map((row) => row.id);
}

function scopeSql(userId: number, scope: HistoryScope): SQL {
  if (scope.kind === "all") return sqlTrue();
  return scope.kind === "received" ? receivedSql(userId) : receivedOrInChannelsSql(userId, scope.channelIds);
}

/** A condition that is never NULL, so that NOT gives its exact complement. */
function conditionSql(db: Reader, userId: number, condition: NarrowCondition, hasTopic: boolean): SQL {
  switch (condition.kind) {
    case "channel":
      return channelSql(condition.channelId, condition.recipientId, hasTopic);
    case "channels":
      return and(
        isNotNull(messages.channelId),
        inArray(messages.channelId, db.select({ id: channels.id }).from(channels).where(condition.which === "public" ? eq(channels.inviteOnly, false) : eq(channels.isWebPublic, true))),
      )!;
    case "topic":
      return and(isNotNull(messages.channelId), eq(messages.topicKey, condition.topicKey))!;
    case "sender":
      return eq(messages.senderId, condition.userId);
    case "conversation":
      return condition.recipientId !== undefined ? eq(messages.recipientId, condition.recipientId) : sqlFalse();
    case "conversationsOf":
      return and(isNull(messages.channelId), sql`${messages.recipientId} IN (SELECT recipient_id FROM recipient_users WHERE user_id = ${condition.userId})`)!;
    case "id":
      return eq(messages.id, condition.messageId);
    case "direct":
      return isNull(messages.channelId);
    case "flagged":
      return flaggedSql(userId, condition.bits);
    case "unread":
      return unreadSql(userId);
    case "topicPrefix":
      return and(isNotNull(messages.channelId), sql`substr(${messages.topic}, 1, ${condition.prefix.length}) = ${condition.prefix}`)!;
    case "followed":
      return and(isNotNull(messages.channelId), sql`coalesce(${topicPolicySql(userId)}, 0) = ${VisibilityPolicy.FOLLOWED}`)!;
    case "muted":
      return mutedSql(userId);
    case "notMuted":
      return not(mutedSql(userId));
    case "has":
      if (condition.what === "reaction") return sql`EXISTS (SELECT 1 FROM reactions WHERE message_id = ${messages.id})`;
      return eq({ link: messages.hasLink, image: messages.hasImage, attachment: messages.hasAttachment }[condition.what], true);
    case "nothing":
      return sqlFalse();
    case "everything":
      return sqlTrue();
  }
}

/**
 * A channel's messages. Without a topic term the channel's recipient is named too: its
 * (recipient_id, id) index reads a channel newest first, where the channel's own index would
 * have every message of the channel sorted first. Never NULL (a direct message's channel is):
 * SQLite's IS compares so; PostgreSQL's IS takes no number, and IS NOT DISTINCT FROM no index.
 */
function channelSql(channelId: number, recipientId: number | undefined, hasTopic: boolean): SQL {
  const byChannel =
    dialect() === "postgres" ? sql`(${messages.channelId} IS NOT NULL AND ${messages.channelId} = ${channelId})` : sql`${messages.channelId} IS ${channelId}`;
  return recipientId === undefined || hasTopic ? byChannel : and(byChannel, eq(messages.recipientId, recipientId))!;
}

/** Looked up row by row: the user may have flagged many thousands of messages. */
function flaggedSql(userId: number, bits: number): SQL {
  return sql`(coalesce((SELECT flags FROM message_flags WHERE user_id = ${userId} AND message_id = ${messages.id}), 0) & ${bits}) != 0`;
}

/** The user's visibility policy for the message's topic (NULL: none set). */
function topicPolicySql(userId: number): SQL {
  return sql`(SELECT visibility_policy FROM user_topics WHERE user_id = ${userId} AND channel_id = ${messages.channelId} AND topic_key = ${messages.topicKey})`;
}

/** Muted for the user: a muted topic, or a muted channel unless the topic is unmuted or followed. */
function mutedSql(userId: number): SQL {
  const policy = topicPolicySql(userId);
  const channelMuted = sql`EXISTS (SELECT 1 FROM subscriptions WHERE user_id = ${userId} AND channel_id = ${messages.channelId} AND ${isTrue("is_muted")})`;
  return and(
    isNotNull(messages.channelId),
    or(sql`coalesce(${policy}, 0) = ${VisibilityPolicy.MUTED}`, and(channelMuted, sql`coalesce(${policy}, 0) NOT IN (${VisibilityPolicy.UNMUTED}, ${VisibilityPolicy.FOLLOWED})`)),
  )!;
}

// ---- Resolving what a narrow names ----

/** The conversation a message is in now: a channel's topic, or a direct conversation's members. */
export type ConversationOfMessage = { channelId: number; topic: string } | { channelId: null; memberIds: number[] };

/**
 * The conversation of the message with this ID (`with:`), if it exists and the user may read
 * it (`readableChannelIds`: the channels whose whole history they may read).
 */
export async function readableConversationOf(db: Reader, messageId: number, userId: number, readableChannelIds: number[]): Promise<ConversationOfMessage | undefined> {
  const target = (await db.select().from(messages).where(eq(messages.id, messageId)))[0];
  if (!target || (await sqlRows(db, sql`SELECT 1 FROM messages WHERE ${and(eq(messages.id, target.id), receivedOrInChannelsSql(userId, readableChannelIds))}`)).length === 0) return undefined;
  if (target.channelId !== null) return { channelId: target.channelId, topic: target.topic };
  const members = await sqlRows<{ user_id: number }>(db, sql`SELECT user_id FROM recipient_users WHERE recipient_id = ${target.recipientId}`);
  return { channelId: null, memberIds: members.map((row) => row.user_id) };
}

/** Whether the user was ever subscribed to the channel: someone who left may still narrow to it. */
export async function hadSubscription(db: Reader, userId: number, channelId: number): Promise<boolean> {
  return (await sqlRows(db, sql`SELECT 1 FROM ${subscriptionPeriods} WHERE user_id = ${userId} AND channel_id = ${channelId} LIMIT 1`)).length > 0;
}
