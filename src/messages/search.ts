import { MIN_PREFIX_LENGTH, type SearchQuery } from "../db/messageSearch";
import { escapeHtml } from "../render/plugins/env";

/**
 * Full-text search: the `search` narrow operand → the words and phrases db/messageSearch.ts
 * looks up in the full-text index, and highlighting of the matches in rendered HTML.
 *
 * The operand is never query syntax. It is cut into words the way the index's tokenizer (FTS5's
 * unicode61) cuts text: runs of letters, digits and private-use characters. Double-quoted
 * parts of the operand are phrases (their words adjacent, in order); other words match any word
 * they begin (a light stand-in for the reference's stemming: "deploy" finds "deployed").
 * Highlighting applies the same rule to the words of the HTML text.
 */

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
