import type { Channel, User } from "../../model/types";

/**
 * The compose box's autocomplete as pure functions: which token the caret is in (`@` people,
 * `#` channels, `#**channel>` topics, `:` emoji), which choices match a query, and the text a
 * choice puts in place of the token. Zulip's markup is what gets inserted, since the server
 * renders it: `@**Full Name**`, `#**channel>topic**`, `:emoji_name:`.
 */

export type Token =
  | { kind: "person"; query: string; silent: boolean; start: number }
  | { kind: "channel"; query: string; start: number }
  | { kind: "topic"; channel: string; query: string; start: number }
  | { kind: "emoji"; query: string; start: number };

// A token starts a word: at the start, after whitespace or an opening bracket or quote.
const BEFORE = String.raw`(^|[\s(\[{"'])`;
/** `#**general>dep`, `#**general** >dep` (a `>` typed after a completed channel) and `#general>dep`. */
const TOPIC_AFTER_MARKUP = new RegExp(`${BEFORE}#\\*\\*([^*>\\n]+)(?:\\*\\*)? ?>([^*\\n]{0,60})$`);
const TOPIC_AFTER_NAME = new RegExp(`${BEFORE}#([^\\s#*>][^#*>\\n]{0,59})>([^*\\n]{0,60})$`);
/** `#` then a name that does not start with a space (`# ` at a line's start is a Markdown heading). */
const CHANNEL = new RegExp(`${BEFORE}#(?:\\*\\*)?((?:[^\\s#*>][^\\n#*>]{0,39})?)$`);
/** `@`, `@_` (a silent mention), then a name, which may have spaces. */
const PERSON = new RegExp(`${BEFORE}@(_?)(?:\\*\\*)?((?:[^\\s@*][^\\n@*]{0,39})?)$`);
/** Two characters at least, like Zulip, so "time: 10:30" or "see:" do not pop up a list. */
const EMOJI = new RegExp(`${BEFORE}:([\\w+-]{2,40})$`);

/** The token ending at the caret, given the text before it. */
export function findToken(before: string): Token | null {
  let match = TOPIC_AFTER_MARKUP.exec(before) ?? TOPIC_AFTER_NAME.exec(before);
  if (match) return { kind: "topic", channel: match[2].trim(), query: match[3], start: match.index + match[1].length };
  match = CHANNEL.exec(before);
  if (match) return { kind: "channel", query: match[2], start: match.index + match[1].length };
  match = PERSON.exec(before);
  if (match) return { kind: "person", silent: match[2] === "_", query: match[3], start: match.index + match[1].length };
  match = EMOJI.exec(before);
  if (match) return { kind: "emoji", query: match[2], start: match.index + match[1].length };
  return null;
}

/** Replaces the token (from its start to the caret) with `insert`; a space already after the caret is not doubled. */
export function applyInsert(text: string, caret: number, start: number, insert: string): { text: string; caret: number } {
  const after = text.slice(caret);
  const piece = insert.endsWith(" ") && /^\s/.test(after) ? insert.slice(0, -1) : insert;
  return { text: text.slice(0, start) + piece + after, caret: start + piece.length };
}

/**
 * How a text answers a query: 0 it starts with it, 1 a later word does (the rest of the text
 * from that word on starts with it, so "mel mem" finds "Mel Member"), -1 no match.
 */
export function wordPrefixRank(text: string, query: string): number {
  const haystack = text.toLowerCase();
  const wanted = query.trim().toLowerCase();
  if (wanted === "" || haystack.startsWith(wanted)) return 0;
  for (const boundary of haystack.matchAll(/[\s\-_./(]+/g)) {
    if (haystack.startsWith(wanted, boundary.index + boundary[0].length)) return 1;
  }
  return -1;
}

type Person = Pick<User, "user_id" | "full_name" | "email">;

/** People whose name (or e-mail) matches: name prefixes, then word prefixes, then e-mails; the given order within each. */
export function matchPeople<P extends Person>(query: string, people: P[], limit = 8): P[] {
  const ranked: Array<{ person: P; rank: number }> = [];
  for (const person of people) {
    let rank = wordPrefixRank(person.full_name, query);
    if (rank === -1 && person.email.toLowerCase().startsWith(query.trim().toLowerCase())) rank = 2;
    if (rank !== -1) ranked.push({ person, rank });
  }
  return ranked
    .sort((a, b) => a.rank - b.rank)
    .slice(0, limit)
    .map((item) => item.person);
}

/** `@**Full Name** `; with `|id` when another active person has the same name, so the server knows which. */
export function mentionText(person: Person, activePeople: Person[], silent = false): string {
  const shared = activePeople.some((other) => other.user_id !== person.user_id && other.full_name.toLowerCase() === person.full_name.toLowerCase());
  return `@${silent ? "_" : ""}**${person.full_name}${shared ? `|${person.user_id}` : ""}** `;
}

export const WILDCARDS = [
  { name: "all", detail: "Notify everyone here", streamOnly: false },
  { name: "topic", detail: "Notify everyone in this topic", streamOnly: true },
] as const;

/** The wildcard mentions a query may mean (none for a silent mention, which notifies no one anyway). */
export function matchWildcards(query: string, toChannel: boolean, silent: boolean) {
  if (silent) return [];
  const wanted = query.trim().toLowerCase();
  return WILDCARDS.filter((wildcard) => (toChannel || !wildcard.streamOnly) && wildcard.name.startsWith(wanted));
}

export const wildcardText = (name: string) => `@**${name}** `;

/** Channels that match, the person's subscribed ones first; archived ones never. */
export function matchChannels<C extends Pick<Channel, "stream_id" | "name" | "is_archived">>(query: string, channels: C[], subscribed: Set<number>, limit = 8): C[] {
  return channels
    .filter((channel) => !channel.is_archived)
    .map((channel) => ({ channel, rank: wordPrefixRank(channel.name, query) }))
    .filter((item) => item.rank !== -1)
    .sort((a, b) => Number(subscribed.has(b.channel.stream_id)) - Number(subscribed.has(a.channel.stream_id)) || a.rank - b.rank || a.channel.name.localeCompare(b.channel.name))
    .slice(0, limit)
    .map((item) => item.channel);
}

/** `#**name** `, or `#**name>` when the person picked it with ">" to go on to a topic. */
export const channelText = (name: string, thenTopic = false) => (thenTopic ? `#**${name}>` : `#**${name}** `);

export const topicLinkText = (channel: string, topic: string) => `#**${channel}>${topic}** `;

/** Topics that match, newest first as the server lists them, those starting with the query before the others. */
export function matchTopics(query: string, topics: string[], limit = 8): string[] {
  return topics
    .map((topic, index) => ({ topic, index, rank: wordPrefixRank(topic, query) }))
    .filter((item) => item.rank !== -1)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .slice(0, limit)
    .map((item) => item.topic);
}

export const emojiText = (name: string) => `:${name}: `;
