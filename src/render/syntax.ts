/**
 * The Zulip-specific message syntax, shared by the renderer and by extractReferences (which
 * tells the caller which rows to fetch before rendering).
 */

/** `@**Full Name**`, `@**Full Name|12**`, `@**|12**`; `@_**...**` is silent. */
export const USER_MENTION = /@(_?)\*\*([^*]+)\*\*/y;
/** `@*group*`; `@_*group*` is silent. */
export const GROUP_MENTION = /@(_?)\*([^*]+)\*/y;
/** `#**channel**`, `#**channel>topic**`, `#**channel>topic@123**` */
export const CHANNEL_LINK = /#\*\*([^*]+)\*\*/y;
/** `:name:` */
export const EMOJI_NAME = /:([\w+-]+):/y;

export const CHANNEL_WILDCARDS: ReadonlySet<string> = new Set(["all", "everyone", "channel", "stream"]);
export const TOPIC_WILDCARD = "topic";

/** Mentions and channel links only count after whitespace, the start, or an opening mark. */
export function startsAfterBoundary(src: string, position: number): boolean {
  if (position === 0) return true;
  const previous = src[position - 1]!;
  return /\s/.test(previous) || "'\"(,:<".includes(previous);
}

export type UserMentionTarget =
  | { kind: "wildcard"; scope: "channel" | "topic" }
  | { kind: "id"; id: number; fullName: string | null }
  | { kind: "name"; name: string };

/** What `@**text**` refers to, before any lookup. */
export function parseUserMention(text: string): UserMentionTarget {
  if (CHANNEL_WILDCARDS.has(text)) return { kind: "wildcard", scope: "channel" };
  if (text === TOPIC_WILDCARD) return { kind: "wildcard", scope: "topic" };
  const withId = /^([^]+)?\|(\d{1,15})$/.exec(text);
  if (withId) return { kind: "id", id: Number(withId[2]), fullName: withId[1] ?? null };
  return { kind: "name", name: text };
}

export type ChannelLinkTarget =
  | { kind: "channel"; channel: string }
  | { kind: "topic"; channel: string; topic: string }
  | { kind: "message"; channel: string; topic: string; messageId: number };

/** What `#**text**` refers to: the channel name ends at the first ">". */
export function parseChannelLink(text: string): ChannelLinkTarget {
  const separator = text.indexOf(">");
  if (separator < 0) return { kind: "channel", channel: text };
  const channel = text.slice(0, separator);
  const rest = text.slice(separator + 1);
  const near = /^([^]*)@(\d{1,15})$/.exec(rest);
  if (near) return { kind: "message", channel, topic: near[1]!, messageId: Number(near[2]) };
  return { kind: "topic", channel, topic: rest };
}

export interface ContentReferences {
  /** Names in `@**Name**` and `@**Name|id**` (as written). */
  userNames: string[];
  /** IDs in `@**Name|id**` and `@**|id**`. */
  userIds: number[];
  groupNames: string[];
  channelNames: string[];
  emojiNames: string[];
}

// Each kind of reference starts with a character most messages lack; its pattern runs only
// when the character is there.
function* allMatches(pattern: RegExp, src: string, required: string): Generator<RegExpExecArray> {
  if (!src.includes(required)) return;
  const global = new RegExp(pattern.source, "g");
  for (const match of src.matchAll(global)) yield match;
}

/**
 * Everything the content might refer to, so the caller can fetch just those rows before the
 * transaction. A superset: it does not know about code blocks or unknown names.
 */
export function extractReferences(content: string): ContentReferences {
  const userNames = new Set<string>();
  const userIds = new Set<number>();
  for (const [, , text] of allMatches(USER_MENTION, content, "@")) {
    const target = parseUserMention(text!);
    if (target.kind === "name") userNames.add(target.name);
    if (target.kind === "id") {
      userIds.add(target.id);
      if (target.fullName !== null) userNames.add(target.fullName);
    }
  }
  const groupNames = new Set<string>();
  for (const [, , name] of allMatches(GROUP_MENTION, content, "@")) groupNames.add(name!);
  const channelNames = new Set<string>();
  for (const [, text] of allMatches(CHANNEL_LINK, content, "#")) {
    channelNames.add(parseChannelLink(text!).channel);
  }
  const emojiNames = new Set<string>();
  for (const [, name] of allMatches(EMOJI_NAME, content, ":")) emojiNames.add(name!);
  return {
    userNames: [...userNames],
    userIds: [...userIds],
    groupNames: [...groupNames],
    channelNames: [...channelNames],
    emojiNames: [...emojiNames],
  };
}
