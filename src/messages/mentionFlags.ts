import { checkGroupMentionAllowed, checkWildcardMentionAllowed } from "../access/mentions";
import { recursiveMemberIds } from "../db/userGroups";
import { Flag } from "../db/messages";
import { topicSenderAndReactorIds } from "../db/messageReferences";
import type { Realm } from "../db/realm";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { topicKeyOf } from "../db/userTopics";
import type { RenderResult } from "../render/markdown";
import type { ChannelDestination, DirectDestination } from "./recipients";

/**
 * Who a message's mentions reach, as flag bits per recipient; which mentions the sender may
 * make at all is decided in access/mentions.ts.
 */

/** A topic's participants (reference: participants_for_topic): who sent or reacted to a message in it, and the new sender. */
async function topicParticipants(db: Reader, channelId: number, topic: string, senderId: number): Promise<Set<number>> {
  return new Set((await topicSenderAndReactorIds(db, channelId, topicKeyOf(topic))).concat(senderId));
}

/** What mention rules need of where a message goes (sending, or editing one already sent). */
export type MentionScope = Pick<ChannelDestination, "kind" | "channel" | "subscriberIds"> | Pick<DirectDestination, "kind">;

/**
 * Checks the sender's right to the message's mentions and returns the flag bits they give
 * the message's recipients (`recipientIds`). Throws the spec's wildcard errors.
 */
export async function applyMentions(db: Reader, sender: User, realm: Realm, rendered: RenderResult, destination: MentionScope, topic: string, recipientIds: readonly number[]): Promise<Map<number, number>> {
  const bits = new Map<number, number>();
  // Built only when someone is mentioned: most messages mention no one.
  let recipients: Set<number> | undefined;
  const add = (userIds: Iterable<number>, flag: number) => {
    for (const id of userIds) if ((recipients ??= new Set(recipientIds)).has(id)) bits.set(id, (bits.get(id) ?? 0) | flag);
  };
  if (destination.kind === "channel" && rendered.wildcard === "channel") {
    await checkWildcardMentionAllowed(db, sender, realm, "channel", destination.subscriberIds.length);
    add(destination.subscriberIds, Flag.STREAM_WILDCARD_MENTIONED);
  }
  if (destination.kind === "channel" && rendered.wildcard === "topic") {
    const participants = await topicParticipants(db, destination.channel.id, topic, sender.id);
    await checkWildcardMentionAllowed(db, sender, realm, "topic", participants.size);
    add(participants, Flag.TOPIC_WILDCARD_MENTIONED);
  }
  for (const groupId of rendered.mentionedGroupIds) {
    await checkGroupMentionAllowed(db, sender, groupId);
    add(await recursiveMemberIds(db, groupId), Flag.MENTIONED | Flag.GROUP_MENTIONED);
  }
  add(rendered.mentionedUserIds, Flag.MENTIONED);
  return bits;
}
