/**
 * What the renderer may look up. Lookups are synchronous: the caller fetches rows (guided by
 * extractReferences) before rendering, and rendering happens before the write transaction.
 */
import { compileLinkifiers, type CompiledLinkifier, type LinkifierDefinition } from "./linkifiers";

export interface MentionableUser {
  id: number;
  fullName: string;
  /** Deactivated users still render as mentions, but silently (nobody is notified). */
  isActive?: boolean;
}

export interface MentionableGroup {
  id: number;
  name: string;
  /** Deactivated groups render silently, as Zulip does. */
  deactivated?: boolean;
}

/** A channel the sender may link to (the caller decides which ones those are). */
export interface LinkableChannel {
  id: number;
  name: string;
}

export interface RealmEmoji {
  id: string;
  name: string;
  sourceUrl: string;
}

export interface RenderContext {
  /** Users whose full name equals `name`, compared case-insensitively. */
  findUsersByName(name: string): readonly MentionableUser[];
  findUserById(id: number): MentionableUser | undefined;
  /** Compared case-insensitively. */
  findGroupByName(name: string): MentionableGroup | undefined;
  /** Compared case-insensitively (channel names are unique that way). */
  findChannelByName(name: string): LinkableChannel | undefined;
  findRealmEmoji(name: string): RealmEmoji | undefined;
  /** The organization's linkifiers, in order. */
  linkifiers: readonly CompiledLinkifier[];
  /** e.g. "https://chat.example.com"; links into it become relative. */
  realmUrl?: string;
  /** Shown for a link to the empty topic (realm_empty_topic_display_name). */
  emptyTopicDisplayName: string;
}

export interface RenderContextRows {
  users?: readonly MentionableUser[];
  groups?: readonly MentionableGroup[];
  channels?: readonly LinkableChannel[];
  realmEmoji?: readonly RealmEmoji[];
  linkifiers?: readonly LinkifierDefinition[];
  realmUrl?: string;
  emptyTopicDisplayName?: string;
}

export const DEFAULT_EMPTY_TOPIC_DISPLAY_NAME = "general chat";

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(key(row)) ?? [];
    list.push(row);
    map.set(key(row), list);
  }
  return map;
}

/** A context over rows already fetched (what extractReferences asked for, or a cache). */
export function createRenderContext(rows: RenderContextRows = {}): RenderContext {
  const usersByName = groupBy(rows.users ?? [], (user) => user.fullName.toLowerCase());
  const usersById = new Map((rows.users ?? []).map((user) => [user.id, user]));
  const groupsByName = new Map((rows.groups ?? []).map((group) => [group.name.toLowerCase(), group]));
  const channelsByName = new Map(
    (rows.channels ?? []).map((channel) => [channel.name.toLowerCase(), channel]),
  );
  const emojiByName = new Map((rows.realmEmoji ?? []).map((emoji) => [emoji.name, emoji]));
  return {
    findUsersByName: (name) => usersByName.get(name.toLowerCase()) ?? [],
    findUserById: (id) => usersById.get(id),
    findGroupByName: (name) => groupsByName.get(name.toLowerCase()),
    findChannelByName: (name) => channelsByName.get(name.toLowerCase()),
    findRealmEmoji: (name) => emojiByName.get(name),
    linkifiers: compileLinkifiers(rows.linkifiers ?? []),
    realmUrl: rows.realmUrl,
    emptyTopicDisplayName: rows.emptyTopicDisplayName ?? DEFAULT_EMPTY_TOPIC_DISPLAY_NAME,
  };
}
