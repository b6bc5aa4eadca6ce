import { channelViewer, hasMetadataAccess } from "../access/channels";
import { findChannelsByNames } from "../db/channels";
import { linkifierDefinitions } from "../db/linkifiers";
import { mentionableGroupsByNames, usersByFullNamesOrIds } from "../db/messageReferences";
import { findActiveRealmEmojiByName } from "../db/realmEmoji";
import type { Realm } from "../db/realm";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { createRenderContext, type LinkableChannel, type RealmEmoji } from "../render/context";
import { renderMessage, type RenderResult } from "../render/markdown";
import { extractReferences } from "../render/syntax";
import { emojiSourceUrl } from "../shapes/realmEmoji";

/**
 * Rendering a message's content for sending: fetch just the rows its mentions and links may
 * name, then render. Runs before the send transaction opens (or, for the notification bot's
 * messages, inside the transaction of the action that posts them).
 */

/** Channels the sender may link to: those they may know exist. */
function linkableChannels(db: Reader, sender: User, names: string[]): LinkableChannel[] {
  if (names.length === 0) return [];
  const viewer = channelViewer(db, sender);
  return findChannelsByNames(db, names)
    .filter((channel) => hasMetadataAccess(viewer, channel))
    .map((channel) => ({ id: channel.id, name: channel.name }));
}

/** Active custom emoji the content names, from the cached set: no query on the send path. */
function namedRealmEmoji(db: Reader, names: string[]): RealmEmoji[] {
  return names.flatMap((name) => {
    const emoji = findActiveRealmEmojiByName(db, name);
    return emoji ? [{ id: String(emoji.id), name: emoji.name, sourceUrl: emojiSourceUrl(emoji.fileName) }] : [];
  });
}

export function renderForSending(db: Reader, sender: User, realm: Realm, content: string): RenderResult {
  const references = extractReferences(content);
  const context = createRenderContext({
    users: usersByFullNamesOrIds(db, references.userNames, references.userIds),
    groups: mentionableGroupsByNames(db, references.groupNames),
    channels: linkableChannels(db, sender, references.channelNames),
    realmEmoji: namedRealmEmoji(db, references.emojiNames),
    linkifiers: linkifierDefinitions(db),
    realmUrl: realm.url,
    emptyTopicDisplayName: realm.settings.empty_topic_display_name,
  });
  return renderMessage(content, context);
}

/**
 * A channel description as HTML, by the message renderer (spec 2.1: descriptions are
 * Markdown). Mentions and channel links resolve as the author sees them; nobody is notified.
 */
export function renderChannelDescription(db: Reader, author: User, realm: Realm, description: string): string {
  return description.trim() === "" ? "" : renderForSending(db, author, realm, description).html;
}
