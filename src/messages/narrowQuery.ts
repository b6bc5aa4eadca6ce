import { type ChannelViewer, hasMetadataAccess, loadGroupsFor } from "../access/channels";
import { canReadHistory, loadGroupsForHistory } from "../access/messageReading";
import { type Channel, findChannelById, findChannelByName, listChannels } from "../db/channels";
import { findDirectRecipient, Flag } from "../db/messages";
import type { SearchQuery } from "../db/messageSearch";
import { channelRecipientIds } from "../db/messageState";
import { hadSubscription, type NarrowCondition, type NarrowFilter, type HistoryScope, readableConversationOf } from "../db/narrowQuery";
import type { Reader } from "../db/types";
import { findUserByEmail, findUserById, type User } from "../db/users";
import { topicKeyOf } from "../db/userTopics";
import { badRequest } from "../http/errors";
import { isGuest } from "../model/roles";
import { userIdOfStandInEmail } from "../shapes/users";
import { NO_TOPIC, RESOLVED_TOPIC_PREFIX } from "./content";
import { badNarrow, type NarrowTerm, type UserRef } from "./narrow";
import { isEmptySearch, parseSearch } from "./search";

/**
 * A parsed narrow → a NarrowFilter: the narrow as data, with what its terms name resolved, which
 * db/narrowQuery.ts turns into SQL limited to what the user may read. As in the reference, a
 * narrow to one channel whose history the user may read (or to all public channels) searches
 * that channel's whole history; every other narrow searches the user's personal history
 * (messages received or starred). Terms on per-user flags (is:...) always use the personal
 * history. Unknown channels and users are the reference's "Invalid narrow operator" errors.
 */

export interface NarrowContext {
  viewer: ChannelViewer;
  realmHost: string;
  emptyTopicDisplayName: string;
}

export interface NarrowQuery {
  /** What db/ queries history with. */
  filter: NarrowFilter;
  /** Present for a search narrow: what match_content and match_subject highlight. */
  search: SearchQuery | null;
  /** The `near` operand, which clients use as the anchor. */
  near: number | null;
}

const MENTION_BITS = Flag.MENTIONED | Flag.STREAM_WILDCARD_MENTIONED | Flag.TOPIC_WILDCARD_MENTIONED | Flag.GROUP_MENTIONED;

/**
 * Which messages the narrow's terms filter: "auto" as described above; "received" the personal
 * history only (matches_narrow, as the reference); "readable" everything the user may read
 * (fetching given message IDs).
 */
export type NarrowScope = "auto" | "received" | "readable";

export async function narrowQuery(db: Reader, context: NarrowContext, narrow: NarrowTerm[], scope: NarrowScope = "auto"): Promise<NarrowQuery> {
  const terms = await withConversationOf(db, context, narrow);
  const resolver = new TermResolver(db, context);
  const isMatch = (term: NarrowTerm) => term.operator === "search" && !term.negated;
  const isExcludedSearch = (term: NarrowTerm) => term.operator === "search" && term.negated;
  const conditions: NarrowFilter["terms"] = [];
  for (const term of terms) {
    if (!isMatch(term) && !isExcludedSearch(term)) conditions.push({ condition: await resolver.condition(term), negated: term.negated });
  }
  const excluded = terms.filter(isExcludedSearch).map((term) => parseSearch([term.operand as string])).filter((query) => !isEmptySearch(query));
  const search = terms.some(isMatch) ? parseSearch(terms.filter(isMatch).map((term) => term.operand as string)) : null;
  checkSearchSize([...(search ? [search] : []), ...excluded]);
  const base: HistoryScope =
    scope === "readable"
      ? { kind: "readable", channelIds: await readableChannelIds(db, context.viewer) }
      : scope === "auto" && (await includesHistory(db, context, terms))
        ? { kind: "all" }
        : { kind: "received" };
  // A search without a single word (only punctuation) matches nothing.
  if (search && isEmptySearch(search)) conditions.push({ condition: { kind: "nothing" }, negated: false });
  const near = terms.find((term) => term.operator === "near");
  return {
    filter: {
      userId: context.viewer.user.id,
      scope: base,
      terms: conditions,
      search: search && !isEmptySearch(search) ? { query: search, recipientId: resolver.conversation } : null,
      excluded,
    },
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

/** The reference's ok_to_include_history. */
async function includesHistory(db: Reader, context: NarrowContext, terms: NarrowTerm[]): Promise<boolean> {
  if (terms.some((term) => term.operator === "is" && term.operand !== "resolved" && term.operand !== "followed")) return false;
  for (const term of terms) {
    if (term.negated) continue;
    if (term.operator === "channels" && term.operand === "public" && !isGuest(context.viewer.user.role)) return true;
    if (term.operator !== "channel") continue;
    const channel = await resolveChannel(db, context, term.operand);
    await loadGroupsForHistory(context.viewer, [channel]);
    if (canReadHistory(context.viewer, channel)) return true;
  }
  return false;
}

/**
 * `with:<message id>` means the conversation that message is in now (it may have moved), in
 * place of any channel, topic or dm terms. A message the user cannot read leaves the rest of
 * the narrow as it was, as in the reference.
 */
async function withConversationOf(db: Reader, context: NarrowContext, narrow: NarrowTerm[]): Promise<NarrowTerm[]> {
  const withTerms = narrow.filter((term) => term.operator === "with");
  if (withTerms.length > 1) throw badNarrow("duplicate 'with' operators");
  const rest = narrow.filter((term) => term.operator !== "with");
  if (withTerms.length === 0) return rest;
  const target = await readableConversationOf(db, withTerms[0].operand as number, context.viewer.user.id, await readableChannelIds(db, context.viewer));
  if (!target) return rest;
  const others = rest.filter((term) => !["channel", "topic", "dm"].includes(term.operator));
  if (target.channelId !== null) {
    return [
      { operator: "channel", operand: target.channelId, negated: false },
      { operator: "topic", operand: target.topic, negated: false },
      ...others,
    ];
  }
  return [{ operator: "dm", operand: target.memberIds, negated: false }, ...others];
}

/** The channels whose whole history the user may read. */
async function readableChannelIds(db: Reader, viewer: ChannelViewer): Promise<number[]> {
  const channels = await listChannels(db, { includeArchived: true });
  await loadGroupsForHistory(viewer, channels);
  return channels.filter((channel) => canReadHistory(viewer, channel)).map((channel) => channel.id);
}

/** A channel named by ID or name; channels the user may not know of are unknown. */
async function resolveChannel(db: Reader, context: NarrowContext, operand: number | string): Promise<Channel> {
  let channel = typeof operand === "number" ? await findChannelById(db, operand) : await findChannelByName(db, operand);
  if (!channel && typeof operand === "string" && /^[0-9]{1,15}$/.test(operand)) channel = await findChannelById(db, Number(operand));
  // Someone who left a private channel may still narrow to it, to read what they received.
  if (channel) await loadGroupsFor(context.viewer, [channel]);
  if (!channel || !(hasMetadataAccess(context.viewer, channel) || (await hadSubscription(db, context.viewer.user.id, channel.id)))) {
    throw badNarrow(`unknown channel ${operand}`);
  }
  return channel;
}

/** Turns the terms of a narrow into conditions, looking up what they name. */
class TermResolver {
  private readonly userId: number;
  /** The one conversation (recipient) a positive channel or dm term limits the narrow to, if any. */
  conversation: number | undefined;

  constructor(
    private readonly db: Reader,
    private readonly context: NarrowContext,
  ) {
    this.userId = context.viewer.user.id;
  }

  async condition(term: NarrowTerm): Promise<NarrowCondition> {
    switch (term.operator) {
      case "channel":
        return this.channel(await resolveChannel(this.db, this.context, term.operand), !term.negated);
      case "channels":
        return { kind: "channels", which: term.operand };
      case "topic":
        return { kind: "topic", topicKey: requestedTopicKey(term.operand, this.context.emptyTopicDisplayName) };
      case "sender":
        return { kind: "sender", userId: (await this.resolveUser(term.operand)).id };
      case "dm":
        return this.directConversation(term.operand, !term.negated);
      case "dm-including":
        return { kind: "conversationsOf", userId: (await this.resolveUser(term.operand)).id };
      case "id":
        return { kind: "id", messageId: term.operand };
      case "is":
        return this.isCondition(term.operand);
      case "has":
        return { kind: "has", what: term.operand };
      case "in":
        return term.operand === "home" ? { kind: "notMuted" } : { kind: "everything" };
      case "search":
        throw new Error("Search terms are the query's match or its excluded searches");
      case "near":
      case "with":
        return { kind: "everything" };
    }
  }

  private async channel(channel: Channel, positive: boolean): Promise<NarrowCondition> {
    const recipientId = (await channelRecipientIds(this.db, [channel.id])).get(channel.id);
    if (positive) this.conversation = recipientId;
    return { kind: "channel", channelId: channel.id, recipientId };
  }

  private async resolveUser(ref: UserRef): Promise<User> {
    const user = typeof ref === "number" ? await findUserById(this.db, ref) : await this.userByEmail(ref);
    if (!user) throw badNarrow(`unknown user ${ref}`);
    return user;
  }

  private async userByEmail(email: string): Promise<User | undefined> {
    const standIn = userIdOfStandInEmail(email, this.context.realmHost);
    return standIn !== null ? await findUserById(this.db, standIn) : await findUserByEmail(this.db, email);
  }

  /** Exactly the conversation of these users and the caller (just the caller: their notes to self). */
  private async directConversation(refs: UserRef[], positive: boolean): Promise<NarrowCondition> {
    const ids = new Set<number>();
    for (const ref of refs) ids.add((await this.resolveUser(ref)).id);
    ids.add(this.userId);
    const recipient = await findDirectRecipient(this.db, ids);
    if (positive) this.conversation = recipient?.id;
    return { kind: "conversation", recipientId: recipient?.id };
  }

  private isCondition(operand: Extract<NarrowTerm, { operator: "is" }>["operand"]): NarrowCondition {
    switch (operand) {
      case "dm":
        return { kind: "direct" };
      case "starred":
        return { kind: "flagged", bits: Flag.STARRED };
      case "mentioned":
        return { kind: "flagged", bits: MENTION_BITS };
      case "alerted":
        return { kind: "flagged", bits: Flag.HAS_ALERT_WORD };
      case "unread":
        return { kind: "unread" };
      case "resolved":
        return { kind: "topicPrefix", prefix: RESOLVED_TOPIC_PREFIX };
      case "followed":
        return { kind: "followed" };
      case "muted":
        return { kind: "muted" };
    }
  }
}
