/**
 * Block syntax as Zulip renders it: code in `<div class="codehilite">`, `~~~ quote` fences as
 * quotes, `~~~ spoiler header` fences as spoiler blocks, strikethrough as `<del>`, and `_`
 * never meaning emphasis.
 */
import type { MarkdownIt, StateCore, StateInline, Token } from "markdown-it";
import { escapeHtml } from "./env";

function codeBlockHtml(content: string, language: string): string {
  const languageAttribute = language ? ` data-code-language="${escapeHtml(language)}"` : "";
  // As Zulip: no trailing whitespace on lines, and the last line ends (even if the fence didn't).
  let code = content.replace(/[ \t]+$/gm, "");
  if (code !== "" && !code.endsWith("\n")) code += "\n";
  return `<div class="codehilite"${languageAttribute}><pre><span></span><code>${escapeHtml(code)}</code></pre></div>\n`;
}

function fenceWord(info: string): { word: string; rest: string } {
  const trimmed = info.trim();
  const space = trimmed.search(/\s/);
  return space < 0
    ? { word: trimmed, rest: "" }
    : { word: trimmed.slice(0, space), rest: trimmed.slice(space).trim() };
}

type Container = { kind: "quote" } | { kind: "spoiler"; header: string };

function containerOf(token: Token): Container | null {
  if (token.type !== "fence") return null;
  const { word, rest } = fenceWord(token.info);
  const lower = word.toLowerCase();
  if (lower === "quote" || lower === "quoted") return { kind: "quote" };
  if (lower === "spoiler") return { kind: "spoiler", header: rest };
  return null;
}

// Deeper fenced containers render as code; this bounds the re-parsing work per message.
const MAX_CONTAINER_DEPTH = 16;

function expandContainers(state: StateCore, tokens: Token[], depth: number): Token[] {
  const out: Token[] = [];
  for (const token of tokens) {
    const container = depth < MAX_CONTAINER_DEPTH ? containerOf(token) : null;
    if (!container) {
      out.push(token);
      continue;
    }
    const inner: Token[] = [];
    state.md.block.parse(token.content, state.md, state.env, inner);
    const body = expandContainers(state, inner, depth + 1);
    const make = (type: string, tag: string, nesting: -1 | 0 | 1) => {
      const made = new state.Token(type, tag, nesting);
      made.block = true;
      made.map = token.map;
      return made;
    };
    if (container.kind === "quote") {
      out.push(make("blockquote_open", "blockquote", 1), ...body, make("blockquote_close", "blockquote", -1));
      continue;
    }
    out.push(make("spoiler_open", "div", 1));
    if (container.header !== "") {
      const header = make("inline", "", 0);
      header.content = container.header;
      header.children = [];
      out.push(make("paragraph_open", "p", 1), header, make("paragraph_close", "p", -1));
    }
    out.push(make("spoiler_content", "div", 0), ...body, make("spoiler_close", "div", -1));
  }
  return out;
}

function underscoreIsText(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5f /* _ */) return false;
  let end = state.pos;
  while (end < state.posMax && state.src.charCodeAt(end) === 0x5f) end++;
  if (!silent) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

export function blocksPlugin(md: MarkdownIt): void {
  md.renderer.rules.fence = (tokens, index) =>
    codeBlockHtml(tokens[index]!.content, fenceWord(tokens[index]!.info).word);
  md.renderer.rules.code_block = (tokens, index) => codeBlockHtml(tokens[index]!.content, "");
  md.renderer.rules.s_open = () => "<del>";
  md.renderer.rules.s_close = () => "</del>";
  md.renderer.rules.spoiler_open = () => '<div class="spoiler-block"><div class="spoiler-header">\n';
  md.renderer.rules.spoiler_content = () => '</div><div class="spoiler-content" aria-hidden="true">\n';
  md.renderer.rules.spoiler_close = () => "</div></div>\n";
  // Runs before "inline", so the containers' paragraphs are parsed like any others.
  md.core.ruler.after("block", "fenced_containers", (state) => {
    state.tokens = expandContainers(state, state.tokens, 0);
  });
  md.inline.ruler.before("emphasis", "underscore_is_text", underscoreIsText);
}
