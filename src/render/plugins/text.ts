/**
 * Work on the finished inline tokens: linkifiers and Unicode emoji in plain text, link
 * fix-ups, and the findings the caller needs (mentions, wildcards, links).
 */
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import { linkifyText } from "../linkifiers";
import { looksLikeImageUrl, relativizeLocalUrl } from "../urls";
import { renderEnv, type MentionMeta, type RenderEnv } from "./env";
import { splitUnicodeEmoji } from "./emoji";

function textToken(state: StateCore, level: number, content: string): Token {
  const token = new state.Token("text", "", 0);
  token.level = level;
  token.content = content;
  return token;
}

/** `[](url)` and `[  ](url)` show the URL, as in Zulip. */
function fillEmptyLinkText(state: StateCore, out: Token[], openIndex: number, href: string): void {
  const label = out.slice(openIndex + 1);
  if (label.every((token) => token.type === "text" && token.content.trim() === "")) {
    out.splice(openIndex + 1, label.length, textToken(state, out[openIndex]!.level + 1, href));
  }
}

function transformInline(state: StateCore, env: RenderEnv, children: Token[]): Token[] {
  const out: Token[] = [];
  const openLinks: number[] = [];
  for (const token of children) {
    if (token.type === "link_open") {
      const href = relativizeLocalUrl(String(token.attrGet("href") ?? ""), env.context.realmUrl);
      token.attrSet("href", href);
      openLinks.push(out.length);
    } else if (token.type === "link_close") {
      const openIndex = openLinks.pop();
      if (openIndex !== undefined) {
        fillEmptyLinkText(state, out, openIndex, String(out[openIndex]!.attrGet("href")));
      }
    }
    if (token.type !== "text") {
      out.push(token);
      continue;
    }
    const makeToken = (type: string) => {
      const made = new state.Token(type, "", 0);
      made.level = token.level;
      return made;
    };
    // Text already inside a link is not linkified again.
    const segments =
      openLinks.length > 0
        ? [{ text: token.content }]
        : linkifyText(token.content, env.context.linkifiers, env.linkBudget);
    for (const segment of segments) {
      if (segment.url === undefined) {
        out.push(...splitUnicodeEmoji(segment.text, makeToken));
        continue;
      }
      const open = new state.Token("link_open", "a", 1);
      open.attrs = [["href", segment.url]];
      open.markup = "linkifier";
      open.level = token.level;
      const close = new state.Token("link_close", "a", -1);
      close.level = token.level;
      out.push(open, textToken(state, token.level + 1, segment.text), close);
    }
  }
  return out;
}

function noteMention(env: RenderEnv, meta: MentionMeta, quoted: boolean): void {
  // Quoting someone's message must not notify the people it mentioned.
  if (quoted) meta.silent = true;
  const { findings } = env;
  const { target } = meta;
  if (target.kind === "user") {
    (meta.silent ? findings.silentlyMentionedUserIds : findings.mentionedUserIds).add(target.id);
  } else if (!meta.silent && target.kind === "group") {
    findings.mentionedGroupIds.add(target.id);
  } else if (!meta.silent && target.kind === "wildcard") {
    if (target.scope === "channel") findings.channelWildcard = true;
    else findings.topicWildcard = true;
  }
}

function noteLink(env: RenderEnv, token: Token): void {
  env.findings.hasLink = true;
  if (looksLikeImageUrl(String(token.attrGet("href")))) env.findings.hasImage = true;
}

function processTokens(state: StateCore): void {
  const env = renderEnv(state.env);
  let quoteDepth = 0;
  for (const block of state.tokens) {
    if (block.type === "blockquote_open") quoteDepth += 1;
    if (block.type === "blockquote_close") quoteDepth -= 1;
    if (block.type !== "inline" || !block.children) continue;
    block.children = transformInline(state, env, block.children);
    for (const token of block.children) {
      if (token.type === "mention") noteMention(env, token.meta as unknown as MentionMeta, quoteDepth > 0);
      if (token.type === "link_open") noteLink(env, token);
    }
  }
}

export function textPlugin(md: MarkdownIt): void {
  // Last: after markdown-it's own linkify and the joining of adjacent text tokens.
  md.core.ruler.push("parley_text", processTokens);
}
