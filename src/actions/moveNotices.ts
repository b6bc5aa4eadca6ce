import { sendMessageInTransaction } from "./sendMessage";
import type { Channel } from "../db/channels";
import type { Message } from "../db/messages";
import type { Realm } from "../db/realm";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { messageNarrowUrl } from "../render/urls";
import { notificationBot, silentMention } from "./channelAnnouncements";

/**
 * What the notification bot posts when messages move (the reference's breadcrumbs): in the new
 * topic where they came from, in the old one where they went; and, for resolving or
 * unresolving a topic, who did it.
 */

export interface MovedThread {
  from: { channel: Channel; topic: string };
  to: { channel: Channel; topic: string };
  /** How many messages moved. */
  count: number;
  /** The message the mover picked, linked to when it moved alone. */
  target: Pick<Message, "id">;
  /** The whole (visible) topic moved, not just part of it. */
  wholeTopic: boolean;
}

const post = async (tx: Tx, channel: Channel, topic: string, content: string) =>
  await sendMessageInTransaction(tx, await notificationBot(tx), { type: "channel", to: String(channel.id), topic, content, client: "Internal", readBySender: false });

const topicLink = (place: { channel: Channel; topic: string }) => `#**${place.channel.name}>${place.topic}**`;

export async function announceMove(tx: Tx, realm: Realm, mover: User, thread: MovedThread, notify: { oldThread: boolean; newThread: boolean }) {
  const who = silentMention(mover);
  const link = `[A message](${realm.url}${messageNarrowUrl(thread.to.channel.id, thread.to.channel.name, thread.to.topic, thread.target.id)})`;
  const { count } = thread;
  if (notify.newThread) {
    const what = thread.wholeTopic ? "This topic was" : count === 1 ? `${link} was` : `${count} messages were`;
    await post(tx, thread.to.channel, thread.to.topic, `${what} moved here from ${topicLink(thread.from)} by ${who}.`);
  }
  if (notify.oldThread) {
    const what = thread.wholeTopic ? "This topic was moved to" : count === 1 ? `${link} was moved from this topic to` : `${count} messages were moved from this topic to`;
    await post(tx, thread.from.channel, thread.from.topic, `${what} ${topicLink(thread.to)} by ${who}.`);
  }
}

export async function announceResolution(tx: Tx, mover: User, channel: Channel, topic: string, resolved: boolean) {
  await post(tx, channel, topic, `${silentMention(mover)} has marked this topic as ${resolved ? "resolved" : "unresolved"}.`);
}
