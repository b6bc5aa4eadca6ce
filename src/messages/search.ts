import { escapeHtml } from "../render/plugins/env";

/**
 * Full-text search: the `search` narrow operand → an FTS5 MATCH expression over
 * messages_fts(content, topic), and highlighting of the matches in rendered HTML.
 *
 * The operand is never handed to FTS5 as query syntax. It is cut into words the way FTS5's
 * unicode61 tokenizer cuts text (runs of letters, digits and private-use characters), and
 * each word goes back as a double-quoted string, so `"`, `AND(`, `NEAR`, `*` and the like
 * are plain text. Double-quoted parts of the operand are phrases (their words adjacent, in
 * order); other words match any word they begin (a light stand-in for the reference's stemming:
 * "deploy" finds "deployed"). Highlighting applies the same rule to the words of the HTML text.
 */

export interface SearchQuery {
  /** Single words, normalized; those of MIN_PREFIX_LENGTH or more match as prefixes. */
  words: string[];
  /** Phrases, each a list of normalized words matched whole. */
  phrases: string[][];
}

/** Shorter words match only whole: as prefixes they would match a large part of the index. */
export const MIN_PREFIX_LENGTH = 3;

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

/** Case- and accent-insensitive form, as the tokenizer (remove_diacritics 2) compares words. */
export const normalizeWord = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

const wordsOf = (text: string) => (text.match(WORD) ?? []).map(normalizeWord).filter((word) => word !== "");

export function parseSearch(operands: string[]): SearchQuery {
  const query: SearchQuery = { words: [], phrases: [] };
  for (const operand of operands) {
    // Split on double quotes: odd pieces were inside quotes. An unclosed quote runs to the end.
    operand.split('"').forEach((piece, index) => {
      const words = wordsOf(piece);
      if (index % 2 === 1 && words.length > 1) query.phrases.push(words);
      else query.words.push(...words);
    });
  }
  return query;
}

export const isEmptySearch = (query: SearchQuery) => query.words.length === 0 && query.phrases.length === 0;

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

const ENTITY = /(&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z][a-zA-Z0-9]*);)/;
const TAG = /(<[^>]*>)/;

/**
 * Wraps the words of the HTML's text that match the query in <span class="highlight">. Only
 * text between tags is touched, and character references inside it are left whole, so tags,
 * attributes and entities come out as they went in.
 */
export function highlightHtml(html: string, query: SearchQuery): string {
  if (isEmptySearch(query)) return html;
  const whole = new Set([...query.phrases.flat(), ...query.words.filter((word) => word.length < MIN_PREFIX_LENGTH)]);
  const prefixes = query.words.filter((word) => word.length >= MIN_PREFIX_LENGTH);
  const matches = (word: string) => {
    const normal = normalizeWord(word);
    return whole.has(normal) || prefixes.some((prefix) => normal.startsWith(prefix));
  };
  return html
    .split(TAG)
    .map((part, index) => (index % 2 === 1 ? part : highlightText(part, matches)))
    .join("");
}

function highlightText(text: string, matches: (word: string) => boolean): string {
  return text
    .split(ENTITY)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(WORD, (word) => (matches(word) ? `<span class="highlight">${word}</span>` : word))))
    .join("");
}

/** match_subject: the topic HTML-escaped, with the query's matches highlighted. */
export const highlightTopic = (topic: string, query: SearchQuery) => highlightHtml(escapeHtml(topic), query);
