import { and, eq, inArray, isNotNull, isNull, not, or, type SQL, sql } from "drizzle-orm";
import { type ChannelViewer, hasMetadataAccess } from "../access/channels";
import { type Channel, channels, findChannelById, findChannelByName } from "../db/channels";
import { findDirectRecipient, Flag, messages } from "../db/messages";
import { channelRecipientIds, subscriptionPeriods, unreadSql } from "../db/messageState";
import type { Reader } from "../db/types";
import { findUserByEmail, findUserById, type User } from "../db/users";
import { topicKeyOf, VisibilityPolicy } from "../db/userTopics";
import { isGuest } from "../model/roles";
import { userIdOfStandInEmail } from "../shapes/users";
import { NO_TOPIC, RESOLVED_TOPIC_PREFIX } from "./content";
import { badRequest } from "../http/errors";
import { badNarrow, type NarrowTerm, type UserRef } from "./narrow";
import { ftsAnyExpression, ftsExpression, isEmptySearch, parseSearch, type SearchQuery } from "./search";
import { canReadHistory, readableSql, receivedSql } from "../access/messageReading";

/**
 * A parsed narrow → one SQL condition on `messages`, limited to what the user may read. As in
 * the reference, a narrow to one channel whose history the user may read (or to all public
 * channels) searches that channel's whole history; every other narrow searches the user's
 * personal history (receivedSql). Terms on per-user flags (is:...) always use the personal
 * history. Names are resolved here: unknown channels and users are the reference's "Invalid
 * narrow operator" errors.
 */

export interface NarrowContext {
  viewer: ChannelViewer;
  realmHost: string;
  emptyTopicDisplayName: string;
}

/** Message IDs from `from` up to (not including) `to`: the part of history one query looks at. */
export interface IdRange {
  from: number;
  to: number;
}

/** Every message ID. */
export const ALL_IDS: IdRange = { from: 0, to: Number.MAX_SAFE_INTEGER };

export interface NarrowQuery {
  /**
   * Every term but the positive search terms (which are `match`), as a condition on the
   * messages with IDs in `range`. Full-text lookups of excluded searches look only there, so
   * what a query costs follows the range it is asked about, not the size of the index.
   */
  where(range: IdRange): SQL;
  /**
   * The positive search terms as one FTS5 MATCH expression, kept apart so that a history
   * query can walk the full-text index newest first instead of collecting every match
   * (fetchWindow); `matching` folds it into one condition for everything else.
   */
  match: string | null;
  /** Present for a search narrow: what match_content and match_subject highlight. */
  search: SearchQuery | null;
  /** The `near` operand, which clients use as the anchor. */
  near: number | null;
}

const MENTION_BITS = Flag.MENTIONED | Flag.STREAM_WILDCARD_MENTIONED | Flag.TOPIC_WILDCARD_MENTIONED | Flag.GROUP_MENTIONED;
const NOTHING = sql`0`;
const EVERYTHING = sql`1`;

/**
 * Which messages the narrow's terms filter: "auto" as described above; "received" the personal
 * history only (matches_narrow, as the reference); "readable" everything the user may read
 * (fetching given message IDs).
 */
export type NarrowScope = "auto" | "received" | "readable";

export function narrowQuery(db: Reader, context: NarrowContext, narrow: NarrowTerm[], scope: NarrowScope = "auto"): NarrowQuery {
  const terms = withConversationOf(db, context, narrow);
  const builder = new TermBuilder(db, context, terms.some((term) => term.operator === "topic" && !term.negated));
  const isMatch = (term: NarrowTerm) => term.operator === "search" && !term.negated;
  const isExcludedSearch = (term: NarrowTerm) => term.operator === "search" && term.negated;
  const conditions = terms
    .filter((term) => !isMatch(term) && !isExcludedSearch(term))
    .map((term) => {
      const condition = builder.condition(term);
      return term.negated ? not(condition) : condition;
    });
  // Excluded searches become one full-text lookup ("none of these"), however many there are.
  const excluded = terms.filter(isExcludedSearch).map((term) => parseSearch([term.operand as string])).filter((query) => !isEmptySearch(query));
  const search = terms.some(isMatch) ? parseSearch(terms.filter(isMatch).map((term) => term.operand as string)) : null;
  checkSearchSize([...(search ? [search] : []), ...excluded]);
  const base =
    scope === "readable"
      ? readableSql(db, context.viewer)
      : scope === "auto" && includesHistory(db, context, terms)
        ? EVERYTHING
        : receivedSql(context.viewer.user.id);
  // A search without a single word (only punctuation) matches nothing.
  if (search && isEmptySearch(search)) conditions.push(NOTHING);
  const near = terms.find((term) => term.operator === "near");
  const where = and(base, ...conditions)!;
  const anyExcluded = excluded.length > 0 ? ftsAnyExpression(excluded) : null;
  return {
    where: (range) => (anyExcluded ? and(where, not(matchesSql(anyExcluded, range)))! : where),
    match: search && !isEmptySearch(search) ? ftsExpression(search, builder.conversation) : null,
    search,
    near: near ? (near.operand as number) : null,
  };
}

/**
 * The most words one narrow may search for (in all its search terms, quoted phrases' words
 * included). Each word is looked up in the full-text index as a prefix, which costs about as
 * much as the index holds messages with words that start so, in one statement that cannot be
 * cut into slices: without a bound, a hundred common words made one query of history take
 * hundreds of milliseconds. The reference sets none; search boxes send a few words.
 */
export const MAX_SEARCH_WORDS = 10;

function checkSearchSize(queries: SearchQuery[]) {
  const words = queries.reduce((sum, query) => sum + query.words.length + query.phrases.flat().length, 0);
  if (words > MAX_SEARCH_WORDS) throw badRequest(`Too many words to search for (at most ${MAX_SEARCH_WORDS})`);
}

/** A topic a client names, as stored: "(no topic)" and the empty topic's display name mean "". */
export function requestedTopicKey(topic: string, emptyTopicDisplayName: string): string {
  const trimmed = topic.trim();
  return trimmed === NO_TOPIC || trimmed === emptyTopicDisplayName ? "" : topicKeyOf(trimmed);
}

/** Messages in `range` matching an FTS5 expression, as a condition on `messages`. */
export const matchesSql = (match: string, range: IdRange) =>
  sql`${messages.id} IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${match} AND rowid >= ${range.from} AND rowid < ${range.to})`;

/** The whole narrow as one condition on `messages`, for the messages with IDs in `range`. */
export const matching = (query: Pick<NarrowQuery, "where" | "match">, range: IdRange): SQL =>
  and(sql`${messages.id} >= ${range.from} AND ${messages.id} < ${range.to}`, query.where(range), query.match ? matchesSql(query.match, range) : undefined)!;

/** The reference's ok_to_include_history. */
function includesHistory(db: Reader, context: NarrowContext, terms: NarrowTerm[]): boolean {
  if (terms.some((term) => term.operator === "is" && term.operand !== "resolved" && term.operand !== "followed")) return false;
  return terms.some((term) => {
    if (term.negated) return false;
    if (term.operator === "channel") return canReadHistory(context.viewer, resolveChannel(db, context, term.operand));
    return term.operator === "channels" && term.operand === "public" && !isGuest(context.viewer.user.role);
  });
}

/**
 * `with:<message id>` means the conversation that message is in now (it may have moved), in
 * place of any channel, topic or dm terms. A message the user cannot read leaves the rest of
 * the narrow as it was, as in the reference.
 */
function withConversationOf(db: Reader, context: NarrowContext, narrow: NarrowTerm[]): NarrowTerm[] {
  const withTerms = narrow.filter((term) => term.operator === "with");
  if (withTerms.length > 1) throw badNarrow("duplicate 'with' operators");
  const rest = narrow.filter((term) => term.operator !== "with");
  if (withTerms.length === 0) return rest;
  const target = db.select().from(messages).where(eq(messages.id, withTerms[0].operand as number)).get();
  if (!target || db.all(sql`SELECT 1 FROM messages WHERE ${and(eq(messages.id, target.id), readableSql(db, context.viewer))}`).length === 0) return rest;
  const others = rest.filter((term) => !["channel", "topic", "dm"].includes(term.operator));
  if (target.channelId !== null) {
    return [
      { operator: "channel", operand: target.channelId, negated: false },
      { operator: "topic", operand: target.topic, negated: false },
      ...others,
    ];
  }
  const members = db.all<{ user_id: number }>(sql`SELECT user_id FROM recipient_users WHERE recipient_id = ${target.recipientId}`);
  return [{ operator: "dm", operand: members.map((row) => row.user_id), negated: false }, ...others];
}

/** A channel named by ID or name; channels the user may not know of are unknown. */
function resolveChannel(db: Reader, context: NarrowContext, operand: number | string): Channel {
  let channel = typeof operand === "number" ? findChannelById(db, operand) : findChannelByName(db, operand);
  if (!channel && typeof operand === "string" && /^[0-9]{1,15}$/.test(operand)) channel = findChannelById(db, Number(operand));
  if (!channel || !(hasMetadataAccess(context.viewer, channel) || hadSubscription(db, context.viewer.user.id, channel.id))) {
    throw badNarrow(`unknown channel ${operand}`);
  }
  return channel;
}

/** Someone who left a private channel may still narrow to it, to read what they received. */
function hadSubscription(db: Reader, userId: number, channelId: number): boolean {
  return db.all(sql`SELECT 1 FROM ${subscriptionPeriods} WHERE user_id = ${userId} AND channel_id = ${channelId} LIMIT 1`).length > 0;
}

class TermBuilder {
  private readonly userId: number;
  /** The one conversation (recipient) a positive channel or dm term limits the narrow to, if any. */
  conversation: number | undefined;

  constructor(
    private readonly db: Reader,
    private readonly context: NarrowContext,
    /** Whether the narrow names a topic, whose index then serves channel terms best. */
    private readonly hasTopic: boolean,
  ) {
    this.userId = context.viewer.user.id;
  }

  /** A condition that is never NULL, so that NOT gives its exact complement. */
  condition(term: NarrowTerm): SQL {
    switch (term.operator) {
      case "channel":
        return this.channel(resolveChannel(this.db, this.context, term.operand), !term.negated);
      case "channels":
        return and(
          isNotNull(messages.channelId),
          inArray(messages.channelId, this.db.select({ id: channels.id }).from(channels).where(term.operand === "public" ? eq(channels.inviteOnly, false) : eq(channels.isWebPublic, true))),
        )!;
      case "topic":
        return and(isNotNull(messages.channelId), eq(messages.topicKey, requestedTopicKey(term.operand, this.context.emptyTopicDisplayName)))!;
      case "sender":
        return eq(messages.senderId, this.resolveUser(term.operand).id);
      case "dm":
        return this.directConversation(term.operand, !term.negated);
      case "dm-including":
        return and(isNull(messages.channelId), sql`${messages.recipientId} IN (SELECT recipient_id FROM recipient_users WHERE user_id = ${this.resolveUser(term.operand).id})`)!;
      case "id":
        return eq(messages.id, term.operand);
      case "is":
        return this.isCondition(term.operand);
      case "has":
        if (term.operand === "reaction") return sql`EXISTS (SELECT 1 FROM reactions WHERE message_id = ${messages.id})`;
        return eq({ link: messages.hasLink, image: messages.hasImage, attachment: messages.hasAttachment }[term.operand], true);
      case "in":
        return term.operand === "home" ? not(this.muted()) : EVERYTHING;
      case "search":
        throw new Error("Search terms are the query's match or its excluded searches");
      case "near":
      case "with":
        return EVERYTHING;
    }
  }

  /**
   * A channel's messages. Without a topic term the channel's recipient is named too: its
   * (recipient_id, id) index reads a channel newest first, where the channel's own index would
   * have every message of the channel sorted first.
   */
  private channel(channel: Channel, positive: boolean): SQL {
    const byChannel = sql`${messages.channelId} IS ${channel.id}`;
    const recipientId = channelRecipientIds(this.db, [channel.id]).get(channel.id);
    if (positive) this.conversation = recipientId;
    return recipientId === undefined || this.hasTopic ? byChannel : and(byChannel, eq(messages.recipientId, recipientId))!;
  }


  private resolveUser(ref: UserRef): User {
    const user = typeof ref === "number" ? findUserById(this.db, ref) : this.userByEmail(ref);
    if (!user) throw badNarrow(`unknown user ${ref}`);
    return user;
  }

  private userByEmail(email: string): User | undefined {
    const standIn = userIdOfStandInEmail(email, this.context.realmHost);
    return standIn !== null ? findUserById(this.db, standIn) : findUserByEmail(this.db, email);
  }

  /** Exactly the conversation of these users and the caller (just the caller: their notes to self). */
  private directConversation(refs: UserRef[], positive: boolean): SQL {
    const ids = new Set(refs.map((ref) => this.resolveUser(ref).id));
    ids.add(this.userId);
    const recipient = findDirectRecipient(this.db, ids);
    if (positive) this.conversation = recipient?.id;
    return recipient ? eq(messages.recipientId, recipient.id) : NOTHING;
  }

  /** Looked up row by row: the user may have flagged many thousands of messages. */
  private flagged(bits: number): SQL {
    return sql`(coalesce((SELECT flags FROM message_flags WHERE user_id = ${this.userId} AND message_id = ${messages.id}), 0) & ${bits}) != 0`;
  }

  private isCondition(operand: Extract<NarrowTerm, { operator: "is" }>["operand"]): SQL {
    switch (operand) {
      case "dm":
        return isNull(messages.channelId);
      case "starred":
        return this.flagged(Flag.STARRED);
      case "mentioned":
        return this.flagged(MENTION_BITS);
      case "alerted":
        return this.flagged(Flag.HAS_ALERT_WORD);
      case "unread":
        return unreadSql(this.userId);
      case "resolved":
        return and(isNotNull(messages.channelId), sql`substr(${messages.topic}, 1, ${RESOLVED_TOPIC_PREFIX.length}) = ${RESOLVED_TOPIC_PREFIX}`)!;
      case "followed":
        return and(isNotNull(messages.channelId), sql`coalesce(${this.topicPolicy()}, 0) = ${VisibilityPolicy.FOLLOWED}`)!;
      case "muted":
        return this.muted();
    }
  }

  /** The user's visibility policy for the message's topic (NULL: none set). */
  private topicPolicy(): SQL {
    return sql`(SELECT visibility_policy FROM user_topics WHERE user_id = ${this.userId} AND channel_id = ${messages.channelId} AND topic_key = ${messages.topicKey})`;
  }

  /** Muted for the user: a muted topic, or a muted channel unless the topic is unmuted or followed. */
  private muted(): SQL {
    const policy = this.topicPolicy();
    const channelMuted = sql`EXISTS (SELECT 1 FROM subscriptions WHERE user_id = ${this.userId} AND channel_id = ${messages.channelId} AND is_muted = 1)`;
    return and(
      isNotNull(messages.channelId),
      or(sql`coalesce(${policy}, 0) = ${VisibilityPolicy.MUTED}`, and(channelMuted, sql`coalesce(${policy}, 0) NOT IN (${VisibilityPolicy.UNMUTED}, ${VisibilityPolicy.FOLLOWED})`)),
    )!;
  }
}
