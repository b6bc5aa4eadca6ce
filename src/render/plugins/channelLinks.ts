/**
 * `#**channel**`, `#**channel>topic**` and `#**channel>topic@id**` become narrow links, for
 * channels the context knows (the caller passes only ones the sender may link to).
 */
import type { MarkdownIt, StateInline, Token } from "markdown-it";
import { CHANNEL_LINK, parseChannelLink, startsAfterBoundary } from "../syntax";
import { channelNarrowUrl, messageNarrowUrl, topicNarrowUrl } from "../urls";
import { escapeHtml, matchAt, renderEnv } from "./env";

interface ChannelLinkMeta {
  className: "stream" | "stream-topic" | "message-link";
  channelId: number;
  channelName: string;
  href: string;
  /** Absent for a plain channel link; "" for the empty topic. */
  topic?: string;
  emptyTopicDisplayName: string;
  isMessageLink: boolean;
}

function channelLinkRule(state: StateInline, silent: boolean): boolean {
  const position = state.pos;
  if (state.src.charCodeAt(position) !== 0x23 /* # */) return false;
  if (!startsAfterBoundary(state.src, position)) return false;
  const match = matchAt(CHANNEL_LINK, state.src, position, state.posMax);
  if (!match) return false;
  const { context } = renderEnv(state.env);
  const target = parseChannelLink(match[1]!);
  const channel = context.findChannelByName(target.channel);
  if (!channel) return false;
  if (!silent) {
    const base = {
      channelId: channel.id,
      channelName: channel.name,
      emptyTopicDisplayName: context.emptyTopicDisplayName,
    };
    let meta: ChannelLinkMeta;
    if (target.kind === "channel") {
      meta = { ...base, className: "stream", href: channelNarrowUrl(channel.id, channel.name), isMessageLink: false };
    } else if (target.kind === "topic") {
      const href = topicNarrowUrl(channel.id, channel.name, target.topic);
      meta = { ...base, className: "stream-topic", href, topic: target.topic, isMessageLink: false };
    } else {
      const href = messageNarrowUrl(channel.id, channel.name, target.topic, target.messageId);
      meta = { ...base, className: "message-link", href, topic: target.topic, isMessageLink: true };
    }
    state.push("channel_link", "a", 0).meta = meta as unknown as Record<string, unknown>;
  }
  state.pos += match[0].length;
  return true;
}

function renderChannelLink(tokens: Token[], index: number): string {
  const meta = tokens[index]!.meta as unknown as ChannelLinkMeta;
  let label = escapeHtml(`#${meta.channelName}`);
  if (meta.topic !== undefined) {
    label += " &gt; ";
    label += meta.topic === "" ? `<em>${escapeHtml(meta.emptyTopicDisplayName)}</em>` : escapeHtml(meta.topic);
  }
  if (meta.isMessageLink) label += " @ 💬";
  const channelAttribute = meta.isMessageLink ? "" : ` data-stream-id="${meta.channelId}"`;
  return `<a class="${meta.className}"${channelAttribute} href="${escapeHtml(meta.href)}">${label}</a>`;
}

export function channelLinksPlugin(md: MarkdownIt): void {
  md.inline.ruler.before("emphasis", "channel_link", channelLinkRule);
  md.renderer.rules.channel_link = renderChannelLink;
}
