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
async function linkableChannels(db: Reader, sender: User, names: string[]): Promise<LinkableChannel[]> {
  if (names.length === 0) return [];
  const viewer = await channelViewer(db, sender);
  return (await findChannelsByNames(db, names))
    .filter((channel) => hasMetadataAccess(viewer, channel))
    .map((channel) => ({ id: channel.id, name: channel.name }));
}

/** Active custom emoji the content names, from the cached set: no query on the send path. */
async function namedRealmEmoji(db: Reader, names: string[]): Promise<RealmEmoji[]> {
  const named: RealmEmoji[] = [];
  for (const name of names) {
    const emoji = await findActiveRealmEmojiByName(db, name);
    if (emoji) named.push({ id: String(emoji.id), name: emoji.name, sourceUrl: emojiSourceUrl(emoji.fileName) });
  }
  return named;
}

export async function renderForSending(db: Reader, sender: User, realm: Realm, content: string): Promise<RenderResult> {
  const references = extractReferences(content);
  const context = createRenderContext({
    users: await usersByFullNamesOrIds(db, references.userNames, references.userIds),
    groups: await mentionableGroupsByNames(db, references.groupNames),
    channels: await linkableChannels(db, sender, references.channelNames),
    realmEmoji: await namedRealmEmoji(db, references.emojiNames),
    linkifiers: await linkifierDefinitions(db),
    realmUrl: realm.url,
    emptyTopicDisplayName: realm.settings.empty_topic_display_name,
  });
  return renderMessage(content, context);
}

/**
 * A channel description as HTML, by the message renderer (spec 2.1: descriptions are
 * Markdown). Mentions and channel links resolve as the author sees them; nobody is notified.
 */
export async function renderChannelDescription(db: Reader, author: User, realm: Realm, description: string): Promise<string> {
  return description.trim() === "" ? "" : (await renderForSending(db, author, realm, description)).html;
}
