import { type SQL, sql } from "drizzle-orm";
import { messages } from "./tables";

/**
 * Full-text search over the index of db/searchIndex.ts: messages_fts(content, topic, scope),
 * an FTS5 table with the unicode61 tokenizer (remove_diacritics 2). A search arrives as plain
 * words and phrases (messages/search.ts cuts the operand into words the way the tokenizer cuts
 * text); each word goes into the MATCH expression as a double-quoted string, so FTS5 query
 * syntax (`"`, `AND(`, `NEAR`, `*` and the like) in what a user typed is plain text.
 */

export interface SearchQuery {
  /** Single words, normalized; those of MIN_PREFIX_LENGTH or more match as prefixes. */
  words: string[];
  /** Phrases, each a list of normalized words matched whole. */
  phrases: string[][];
}

/** Shorter words match only whole: as prefixes they would match a large part of the index. */
export const MIN_PREFIX_LENGTH = 3;

/** Message IDs from `from` up to (not including) `to`: the part of history one query looks at. */
export interface IdRange {
  from: number;
  to: number;
}

/**
 * The MATCH expression: every word and phrase must occur in the content or the topic. With
 * a recipient, only that conversation's messages (the index's `scope` column) are searched.
 */
export function ftsExpression(query: SearchQuery, recipientId?: number): string {
  // Words hold only letters and digits, so quoting them needs no escaping.
  const words = query.words.map((word) => (word.length >= MIN_PREFIX_LENGTH ? `"${word}"*` : `"${word}"`));
  const text = `{content topic} : (${[...words, ...query.phrases.map((phrase) => `"${phrase.join(" ")}"`)].join(" AND ")})`;
  return recipientId === undefined ? text : `scope : "r${recipientId}" AND ${text}`;
}

/** A MATCH expression for messages matching any of the queries (each as ftsExpression has it). */
export const ftsAnyExpression = (queries: SearchQuery[]) => queries.map((query) => `(${ftsExpression(query)})`).join(" OR ");

/** Messages in `range` matching an FTS5 expression, as a condition on `messages`. */
export const matchesSql = (match: string, range: IdRange): SQL =>
  sql`${messages.id} IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${match} AND rowid >= ${range.from} AND rowid < ${range.to})`;
