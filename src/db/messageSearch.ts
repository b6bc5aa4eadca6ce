import { type SQL, sql } from "drizzle-orm";
import { dialect } from "./dialect";
import { messages } from "./tables";

/**
 * Full-text search. On SQLite, over the index of db/searchIndex.ts: messages_fts(content, topic,
 * scope), an FTS5 table with the unicode61 tokenizer (remove_diacritics 2). On PostgreSQL, over
 * messages_search, a GIN index over the words of each message's topic and content that
 * parley_search_text cuts and folds as unicode61 does (migrations/postgres/0002_messages_search.sql
 * says how, and what differences remain). A search arrives as plain words and phrases
 * (messages/search.ts cuts the operand into words the way the tokenizer cuts text). On SQLite
 * each word goes into the MATCH expression as a double-quoted string, so FTS5 query syntax (`"`,
 * `AND(`, `NEAR`, `*` and the like) in what a user typed is plain text; on PostgreSQL words are
 * bound parameters, folded by the same function that folds the messages.
 *
 * The expression a search becomes is text in either dialect, chosen by dialect() when it is
 * built: FTS5's MATCH expression, or for PostgreSQL the search as JSON (PostgresMatch), which
 * matchesSql turns into SQL. Matches are highlighted by messages/search.ts from the query's
 * words, the same for both.
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
 * The expression (FTS5's MATCH, or PostgresMatch's JSON): every word and phrase must occur in
 * the content or the topic. With a recipient, only that conversation's messages (the index's
 * `scope` column, PostgreSQL's key '#r' and the ID) are searched.
 */
export function ftsExpression(query: SearchQuery, recipientId?: number): string {
  if (dialect() === "postgres") return JSON.stringify([postgresGroup(query, recipientId)] satisfies PostgresMatch);
  // Words hold only letters and digits, so quoting them needs no escaping.
  const words = query.words.map((word) => (word.length >= MIN_PREFIX_LENGTH ? `"${word}"*` : `"${word}"`));
  const text = `{content topic} : (${[...words, ...query.phrases.map((phrase) => `"${phrase.join(" ")}"`)].join(" AND ")})`;
  return recipientId === undefined ? text : `scope : "r${recipientId}" AND ${text}`;
}

/** An expression for messages matching any of the queries (each as ftsExpression has it). */
export const ftsAnyExpression = (queries: SearchQuery[]) =>
  dialect() === "postgres"
    ? JSON.stringify(queries.map((query) => postgresGroup(query)) satisfies PostgresMatch)
    : queries.map((query) => `(${ftsExpression(query)})`).join(" OR ");

/** Messages in `range` matching an expression of ftsExpression or ftsAnyExpression, as a condition on `messages`. */
export const matchesSql = (match: string, range: IdRange): SQL =>
  dialect() === "postgres"
    ? sql`${messages.id} IN (SELECT found.id FROM messages found WHERE found.id >= ${range.from} AND found.id < ${range.to} AND ${postgresMatchSql(JSON.parse(match) as PostgresMatch)})`
    : sql`${messages.id} IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${match} AND rowid >= ${range.from} AND rowid < ${range.to})`;

// ---- PostgreSQL ----

/**
 * What PostgreSQL's hand-written search migration (migrations/postgres/0002_messages_search.sql)
 * makes beyond the drizzle schema: the index and the functions it is made of.
 * test/postgres/migrations.test.ts expects them, and only them, beside the schema's own.
 */
export const POSTGRES_SEARCH_OBJECTS = {
  indexes: [{ table: "messages", name: "messages_search" }],
  functions: ["parley_search_has_phrase", "parley_search_keys", "parley_search_lexemes", "parley_search_query", "parley_search_text"],
} as const;

/**
 * One search term: a word (`prefix`: it may begin a longer word, as FTS5's `"word"*`) or a
 * phrase (its words joined by spaces). `phrase`: the index's answer is not enough, the words
 * must also follow one another in the text (a phrase; a word the index holds cut short, or
 * cuts in two).
 */
interface PostgresTerm {
  text: string;
  prefix: boolean;
  phrase: boolean;
}

/** A search as PostgreSQL's expression holds it: messages matching any group, each every term of it, within its recipient's conversation if it names one. */
type PostgresMatch = Array<{ recipientId?: number; terms: PostgresTerm[] }>;

/**
 * Letters to Unicode today, separators to unicode61 (its Unicode 6.1 tables): a word of the
 * query holding one is several words of the index, and FTS5 reads it as a phrase. (New Tai
 * Lue's vowel signs and tone marks, two Vedic signs; found by test/postgres/search.test.ts's
 * sweep of every code point.)
 */
const SEPARATORS_IN_INDEX = /[\u19b0-\u19c0\u19c8\u19c9\u1cf2\u1cf3]/u;

/** The index holds words cut to this many characters (parley_search_lexemes): longer ones are checked whole, as phrases are. */
const LONGEST_INDEXED_WORD = 500;

function postgresGroup(query: SearchQuery, recipientId?: number): PostgresMatch[number] {
  const terms: PostgresTerm[] = [
    ...query.words.map((word) => ({ text: word, prefix: word.length >= MIN_PREFIX_LENGTH, phrase: word.length > LONGEST_INDEXED_WORD || SEPARATORS_IN_INDEX.test(word) })),
    ...query.phrases.map((phrase) => ({ text: phrase.join(" "), prefix: false, phrase: true })),
  ];
  return recipientId === undefined ? { terms } : { recipientId, terms };
}

/**
 * The rows of `found` (messages) a PostgresMatch finds. The index (messages_search) is asked
 * for every word of the group and the conversation's key; a term that has no word at all makes
 * its query NULL, and the group finds nothing, as FTS5's empty phrase. Phrases are then checked
 * on the words of the rows the index gave, in the topic or in the content (FTS5's columns).
 */
function postgresMatchSql(match: PostgresMatch): SQL {
  if (match.length === 0) return sql`false`;
  const flag = (on: boolean) => sql.raw(on ? "true" : "false");
  const groups = match.map(({ recipientId, terms }) => {
    if (terms.length === 0) return sql`false`;
    const parts = terms.map((term) => sql`parley_search_query(${term.text}, ${flag(term.prefix)})`);
    if (recipientId !== undefined) parts.unshift(sql`${`'#r${recipientId}'`}::tsquery`);
    const phrases = terms.filter((term) => term.phrase).map((term) => sql` AND parley_search_has_phrase(found.topic, found.content, ${term.text}, ${flag(term.prefix)})`);
    return sql`(parley_search_keys(found.topic, found.content, found.recipient_id) @@ (${sql.join(parts, sql` && `)})${sql.join(phrases)})`;
  });
  return sql`(${sql.join(groups, sql` OR `)})`;
}
