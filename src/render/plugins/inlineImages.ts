/**
 * Uploaded files in messages: every link to /user_uploads/... is noted (the reference's
 * potential_attachment_path_ids, which the send links to the uploads), and a linked image is
 * previewed after its paragraph as Zulip renders it (without thumbnails):
 *
 *   <div class="message_inline_image"><a href="/user_uploads/..." title="name"><img src="/user_uploads/..."></a></div>
 *
 * A paragraph holding nothing but the link gives way to the preview. As in the reference,
 * links inside quotes are not previewed, each URL is previewed once, and a message with more
 * than 24 previewable links gets no previews at all. Images elsewhere on the web are not
 * previewed: without an image proxy, showing them would tell their host who reads the message.
 */
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import { looksLikeImageUrl } from "../urls";
import { escapeHtml, renderEnv } from "./env";

/** The reference's INLINE_PREVIEW_LIMIT_PER_MESSAGE. */
const PREVIEW_LIMIT = 24;

/**
 * The path ID an upload link names ("/user_uploads/1/ab/x.png", or "user_uploads/..." for
 * a link into this organization made relative), or undefined for any other link.
 */
export function uploadPathIdOf(href: string): string | undefined {
  const match = /^\/?user_uploads\/([^?#]+)/.exec(href);
  if (!match) return undefined;
  let parts: string[];
  try {
    parts = match[1]!.split("/").map(decodeURIComponent);
  } catch {
    return undefined;
  }
  if (parts.length < 2 || parts[0] === "temporary" || parts[0] === "thumbnail") return undefined;
  if (parts.some((part) => part === "" || part === "." || part === "..")) return undefined;
  return parts.join("/");
}

interface Link {
  href: string;
  text: string;
  /** Nothing else in its paragraph. */
  alone: boolean;
}

/** The links of one inline token's children, with their text. */
function linksIn(children: Token[]): Link[] {
  const links: Link[] = [];
  const meaningful = children.filter((token) => !(token.type === "text" && token.content.trim() === ""));
  for (let i = 0; i < children.length; i++) {
    if (children[i]!.type !== "link_open") continue;
    let text = "";
    let j = i + 1;
    for (; j < children.length && children[j]!.type !== "link_close"; j++) text += children[j]!.content;
    links.push({ href: String(children[i]!.attrGet("href") ?? ""), text, alone: meaningful[0] === children[i] && meaningful[meaningful.length - 1] === children[j] });
  }
  return links;
}

function previewHtml(link: Link): string {
  const href = escapeHtml(link.href.startsWith("/") ? link.href : `/${link.href}`);
  // A bare URL's text is the URL itself: no title, as in the reference.
  const named = link.text !== "" && link.text !== link.href && !link.text.endsWith(link.href.replace(/^\//, ""));
  const title = named ? ` title="${escapeHtml(link.text)}"` : "";
  return `<div class="message_inline_image"><a href="${href}"${title}><img src="${href}"></a></div>`;
}

/** A paragraph's inline token: the one place a preview follows. */
const isParagraphInline = (tokens: Token[], index: number) => tokens[index - 1]?.type === "paragraph_open" && tokens[index + 1]?.type === "paragraph_close";

function addPreviews(state: StateCore): void {
  // Most messages link no upload: one substring check and they are done.
  if (!state.src.includes("user_uploads/")) return;
  const env = renderEnv(state.env);
  const tokens = state.tokens;
  let quoteDepth = 0;
  const previewable = new Set<string>();
  const paragraphs: Array<{ index: number; links: Link[] }> = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.type === "blockquote_open") quoteDepth += 1;
    if (token.type === "blockquote_close") quoteDepth -= 1;
    if (token.type !== "inline" || !token.children) continue;
    const links = linksIn(token.children);
    for (const link of links) {
      const pathId = uploadPathIdOf(link.href);
      if (pathId !== undefined) env.findings.attachmentPathIds.add(pathId);
    }
    if (quoteDepth > 0 || links.length === 0) continue;
    for (const link of links) previewable.add(link.href);
    if (isParagraphInline(tokens, index)) paragraphs.push({ index, links });
  }
  if (previewable.size === 0 || previewable.size > PREVIEW_LIMIT) return;

  const shown = new Set<string>();
  // From the last paragraph back, so that earlier indices stay valid as tokens are spliced in.
  const inserts: Array<{ index: number; remove: boolean; html: string }> = [];
  for (const { index, links } of paragraphs) {
    const images: Link[] = [];
    for (const link of links) {
      if (uploadPathIdOf(link.href) === undefined || !looksLikeImageUrl(link.href) || shown.has(link.href)) continue;
      shown.add(link.href);
      images.push(link);
    }
    if (images.length === 0) continue;
    inserts.push({ index, remove: links.length === 1 && links[0]!.alone, html: images.map(previewHtml).join("") });
  }
  for (const { index, remove, html } of inserts.reverse()) {
    if (remove && tokens[index - 1]!.hidden) {
      // A tight list item's paragraph has no tags of its own: the preview becomes its content.
      const preview = new state.Token("html_inline", "", 0);
      preview.content = html;
      tokens[index]!.children = [preview];
      continue;
    }
    const preview = new state.Token("html_block", "", 0);
    preview.block = true;
    preview.content = html;
    // In place of the paragraph (its open, inline and close tokens), or after its close.
    if (remove) tokens.splice(index - 1, 3, preview);
    else tokens.splice(index + 2, 0, preview);
  }
}

export function inlineImagesPlugin(md: MarkdownIt): void {
  // After parley_text, which has made links into this organization relative.
  md.core.ruler.push("parley_inline_images", addPreviews);
}
