/**
 * Emoji in messages, rendered as Zulip clients expect: `:name:` and literal Unicode emoji
 * become `<span class="emoji emoji-CODE">:name:</span>` (clients draw the image from the
 * class); custom and built-in extra emoji become `<img class="emoji">`.
 */
import type { MarkdownIt, StateInline, Token } from "markdown-it";
import {
  emojiCodeForName,
  emojiNameForCode,
  EXTRA_EMOJI_IMAGE_URL,
  extraEmojiCodeForName,
  unicodeToCode,
} from "../emoji";
import { EMOJI_NAME } from "../syntax";
import { escapeHtml, matchAt, renderEnv } from "./env";

type EmojiMeta = { kind: "unicode"; code: string; name: string } | { kind: "image"; src: string; name: string };

function emojiForName(state: StateInline, name: string): EmojiMeta | null {
  const custom = renderEnv(state.env).context.findRealmEmoji(name);
  if (custom) return { kind: "image", src: custom.sourceUrl, name };
  if (extraEmojiCodeForName(name) !== undefined) return { kind: "image", src: EXTRA_EMOJI_IMAGE_URL, name };
  const code = emojiCodeForName(name);
  return code === undefined ? null : { kind: "unicode", code, name };
}

function emojiNameRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const match = matchAt(EMOJI_NAME, state.src, state.pos, state.posMax);
  if (!match) return false;
  const meta = emojiForName(state, match[1]!);
  if (!silent) {
    // An unknown `:name:` is consumed as text, so its closing colon cannot open another.
    if (meta) state.push("emoji", "span", 0).meta = meta;
    else state.pending += match[0];
  }
  state.pos += match[0].length;
  return true;
}

const EMOJI_UNIT = String.raw`\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?`;
const FLAG = String.raw`\p{Regional_Indicator}\p{Regional_Indicator}`;
const EMOJI_SEQUENCE = new RegExp(`(?:${FLAG}|${EMOJI_UNIT})(?:\\u200D(?:${FLAG}|${EMOJI_UNIT}))*`, "gu");
// Characters such as digits, "#" and arrows are emoji only when asked for with FE0F.
const TEXT_PRESENTATION = /^\P{Emoji_Presentation}\u20E3?$/u;

/**
 * Splits text into text and emoji tokens for the Unicode emoji we know; others stay text.
 * `makeToken` creates a token at the text's nesting level.
 */
export function splitUnicodeEmoji(text: string, makeToken: (type: string) => Token): Token[] {
  const tokens: Token[] = [];
  let cursor = 0;
  const pushText = (end: number) => {
    if (end <= cursor) return;
    const token = makeToken("text");
    token.content = text.slice(cursor, end);
    tokens.push(token);
  };
  for (const match of text.matchAll(EMOJI_SEQUENCE)) {
    if (TEXT_PRESENTATION.test(match[0])) continue;
    const code = unicodeToCode(match[0]);
    const name = emojiNameForCode(code);
    if (name === undefined) continue;
    pushText(match.index);
    const token = makeToken("emoji");
    token.meta = { kind: "unicode", code, name } satisfies EmojiMeta;
    tokens.push(token);
    cursor = match.index + match[0].length;
  }
  pushText(text.length);
  return tokens;
}

function renderEmoji(tokens: Token[], index: number): string {
  const meta = tokens[index]!.meta as EmojiMeta;
  const title = escapeHtml(meta.name.replace(/_/g, " "));
  const syntax = escapeHtml(`:${meta.name}:`);
  if (meta.kind === "image") {
    return `<img alt="${syntax}" class="emoji" src="${escapeHtml(meta.src)}" title="${title}">`;
  }
  return `<span aria-label="${title}" class="emoji emoji-${meta.code}" role="img" title="${title}">${syntax}</span>`;
}

export function emojiPlugin(md: MarkdownIt): void {
  // After "linkify", so "https://" is taken as a link before ":" is read as emoji syntax.
  md.inline.ruler.after("linkify", "emoji_name", emojiNameRule);
  md.renderer.rules.emoji = renderEmoji;
}
