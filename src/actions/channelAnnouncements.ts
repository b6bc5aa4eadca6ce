import { sendMessageInTransaction } from "./sendMessage";
import { type Channel, findChannelById } from "../db/channels";
import { getRealm, realmHost } from "../db/realm";
import type { Tx } from "../db/types";
import { findUserByEmail, type User } from "../db/users";

/**
 * What the notification bot says when channels are created (spec 3: "announced by the
 * notification bot if announce is true"), in the reference's words and topics.
 */

export const NEW_CHANNELS_TOPIC = "new channels";
export const CHANNEL_EVENTS_TOPIC = "channel events";

export const silentMention = (user: User) => `@_**${user.fullName}|${user.id}**`;

function privacyName(channel: Channel): string {
  if (channel.isWebPublic) return "Web-public";
  if (!channel.inviteOnly) return "Public";
  return channel.historyPublicToSubscribers ? "Private, shared history" : "Private, protected history";
}

export async function notificationBot(tx: Tx): Promise<User> {
  const bot = await findUserByEmail(tx, `notification-bot@${realmHost(await getRealm(tx))}`);
  if (!bot) throw new Error("The notification bot is missing");
  return bot;
}

const post = (tx: Tx, bot: User, to: number, topic: string, content: string) =>
  sendMessageInTransaction(tx, bot, { type: "channel", to: String(to), topic, content, client: "Internal", readBySender: false });

/**
 * Each new channel gets a first message saying who created it, and how private it is; with
 * `announce`, the organization's new-channel announcements channel (if it has one) is told of
 * the new public channels. Private channels are never announced, so their names stay private.
 */
export async function postChannelAnnouncements(tx: Tx, creator: User, created: Channel[], announce: boolean) {
  if (created.length === 0) return;
  const bot = await notificationBot(tx);
  for (const channel of created) {
    const description = channel.description === "" ? "*No description.*" : channel.description;
    await post(tx, bot, channel.id, CHANNEL_EVENTS_TOPIC, `**${privacyName(channel)}** channel created by ${silentMention(creator)}. **Description:**\n\`\`\`\` quote\n${description}\n\`\`\`\``);
  }
  const announcementsId = (await getRealm(tx)).settings.new_stream_announcements_stream_id;
  const announcements = announcementsId === null ? undefined : await findChannelById(tx, announcementsId);
  const announced = created.filter((channel) => !channel.inviteOnly);
  if (!announce || !announcements || announcements.isArchived || announced.length === 0) return;
  const links = announced.map((channel) => `#**${channel.name}**`).join(", ");
  const content = announced.length > 1 ? `${silentMention(creator)} created the following channels: ${links}.` : `${silentMention(creator)} created a new channel ${links}.`;
  await post(tx, bot, announcements.id, NEW_CHANNELS_TOPIC, content);
}
