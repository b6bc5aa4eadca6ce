/**
 * Message Markdown → rendered_content, in the HTML shapes Zulip clients style.
 *
 * markdown-it does the CommonMark parsing with raw HTML disabled (it is escaped, never passed
 * through); our plugins add Zulip's syntax. Links are limited to http(s), mailto and in-app
 * relative targets. Usage: `extractReferences(content)` → fetch those rows → build a
 * RenderContext → `renderMessage(content, context)`, all before the write transaction.
 */
import MarkdownIt from "markdown-it";
import type { RenderContext } from "./context";
import { newLinkBudget } from "./linkifiers";
import { blocksPlugin } from "./plugins/blocks";
import { channelLinksPlugin } from "./plugins/channelLinks";
import { emojiPlugin } from "./plugins/emoji";
import { inlineImagesPlugin } from "./plugins/inlineImages";
import type { RenderEnv } from "./plugins/env";
import { mentionsPlugin } from "./plugins/mentions";
import { textPlugin } from "./plugins/text";
import { createBareUrlDetector, isSafeHref } from "./urls";

export interface RenderResult {
  html: string;
  isMeMessage: boolean;
  /** Users to notify: mentioned outside quotes, not silently, and active. */
  mentionedUserIds: number[];
  /** Users mentioned only silently (`@_**Name**`, inside quotes, or deactivated). */
  silentlyMentionedUserIds: number[];
  mentionedGroupIds: number[];
  /** "channel" for the all, everyone, channel and stream wildcards (wins over "topic"). */
  wildcard: "channel" | "topic" | null;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /**
   * Path IDs of the uploads the message links. The send links those its sender may link, and
   * sets has_attachment when there are any (hasAttachment stays false until then).
   */
  attachmentPathIds: string[];
}

function createMarkdown() {
  const md = new MarkdownIt("default", { html: false, linkify: true, breaks: true, typographer: false });
  // Zulip has no reference links, setext headings or image syntax (images come from links).
  md.disable(["reference", "lheading", "image"]);
  md.linkify = createBareUrlDetector({ emails: true });
  md.validateLink = isSafeHref;
  md.use(blocksPlugin).use(mentionsPlugin).use(channelLinksPlugin).use(emojiPlugin).use(textPlugin).use(inlineImagesPlugin);
  return md;
}

const md = createMarkdown();

/** A `/me` message ("/me waves") is shown by clients as an action of its sender. */
export function isMeMessage(content: string): boolean {
  return content.startsWith("/me ");
}

export function renderMessage(content: string, context: RenderContext): RenderResult {
  const env: RenderEnv = {
    context,
    linkBudget: newLinkBudget(),
    findings: {
      mentionedUserIds: new Set(),
      silentlyMentionedUserIds: new Set(),
      mentionedGroupIds: new Set(),
      channelWildcard: false,
      topicWildcard: false,
      hasLink: false,
      hasImage: false,
      attachmentPathIds: new Set(),
    },
  };
  const html = md.render(content, env).replace(/\n$/, "");
  const { findings } = env;
  return {
    html,
    isMeMessage: isMeMessage(content),
    mentionedUserIds: [...findings.mentionedUserIds],
    silentlyMentionedUserIds: [...findings.silentlyMentionedUserIds].filter(
      (id) => !findings.mentionedUserIds.has(id),
    ),
    mentionedGroupIds: [...findings.mentionedGroupIds],
    wildcard: findings.channelWildcard ? "channel" : findings.topicWildcard ? "topic" : null,
    hasLink: findings.hasLink,
    hasImage: findings.hasImage,
    hasAttachment: false,
    attachmentPathIds: [...findings.attachmentPathIds],
  };
}

/**
 * Renders a sample of every kind of markup a few times, so that the first messages after a
 * start do not pay for compiling the renderer (a first long message took 50 ms instead of 10,
 * all of it holding the event loop). Called once at start.
 */
export function warmUpRenderer(context: RenderContext) {
  const sample = "**bold** _it_ `code` [link](https://example.com) https://example.com :smile: @**Someone** #**channel>topic**\n> quote\n\n```\nblock\n```\n- item\n1. item\n";
  for (let i = 0; i < 20; i++) renderMessage(sample.repeat(10), context);
}
