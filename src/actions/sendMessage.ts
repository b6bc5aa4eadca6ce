import { writeSend } from "../db/groupCommit";
import { Flag } from "../db/messages";
import { getRealm, type Realm } from "../db/realm";
import { insertMessage, insertMessageFlags } from "../db/sendQueries";
import { queueMessageNotifications } from "./messageNotificationQueue";
import { readWithoutSnapshot } from "../db/transaction";
import type { Reader, SendTx } from "../db/types";
import type { User } from "../db/users";
import { topicKeyOf } from "../db/userTopics";
import { badRequest } from "../http/errors";
import { isHumanClient } from "../messages/client";
import { renderForSending } from "../messages/compose";
import { normalizeContent, normalizeTopic } from "../messages/content";
import { emitMessage } from "./messageDelivery";
import { queueOutgoingWebhooks } from "./outgoingWebhooks";
import { applyMentions } from "../messages/mentionFlags";
import { addAlertWordBits } from "../messages/alertWordFlags";
import { markReadForMuters } from "../messages/mutedSenders";
import { type Address, parseAddress, resolveDestination } from "../messages/recipients";
import { applyTopicPolicyChanges, mentionedTopicPolicyChanges, senderTopicPolicyChange, type TopicInSending } from "./automaticTopicPolicies";
import type { RenderResult } from "../render/markdown";
import { apiFlags } from "../shapes/messages";
import { refreshFirstMessageId } from "./firstMessageId";
import { claimableAttachments } from "../access/attachments";
import { linkNewMessage } from "./attachments";
import { now } from "../model/clock";

/** POST /messages parameters (spec 4.1), as the route decoded them. */
export interface SendMessageRequest {
  type: string;
  to: string;
  content: string;
  /** Required for channel messages; ignored for direct messages. */
  topic?: string;
  /** The sending client's name (see messages/client.ts). */
  client: string;
  readBySender?: boolean;
  queueId?: string;
  localId?: string;
}

export interface SendMessageResult {
  id: number;
  /** Present only when sending followed or unmuted the topic for the sender. */
  automatic_new_visibility_policy?: number;
}

/** A message checked and rendered, ready for the transaction that stores it. */
interface Draft {
  /** Read when the request began, and used throughout it, as the reference does. */
  realm: Realm;
  address: Address;
  content: string;
  topic: string;
  rendered: RenderResult;
  client: string;
  readBySender: boolean;
  localEcho?: { queueId: string; localId: string };
}

async function prepare(db: Reader, sender: User, realm: Realm, request: SendMessageRequest): Promise<Draft> {
  const address = parseAddress(request.type, request.to);
  if (request.queueId !== undefined && request.localId === undefined) throw badRequest("Missing 'local_id' argument");
  const content = normalizeContent(request.content);
  const topic = address.kind === "channel" ? normalizeTopic(request.topic, realm.settings) : "";
  return {
    realm,
    address,
    content,
    topic,
    rendered: await renderForSending(db, sender, realm, content),
    client: request.client,
    readBySender: request.readBySender ?? isHumanClient(request.client),
    localEcho: request.queueId !== undefined ? { queueId: request.queueId, localId: request.localId! } : undefined,
  };
}

/**
 * POST /messages. Checking and rendering happen before the transaction; the transaction
 * resolves the recipient with the sender's permissions, stores the message with its few flag
 * rows, and emits the events that go out once it commits. Sends arriving together share one
 * transaction (db/groupCommit.ts); each is answered after that commit.
 */
export async function sendMessage(sender: User, request: SendMessageRequest): Promise<SendMessageResult> {
  // Not in a read transaction: nothing here needs one snapshot, and opening one costs.
  const draft = await readWithoutSnapshot(async (db) => prepare(db, sender, await getRealm(db), request));
  return await writeSend((tx) => store(tx, sender, draft));
}

/** Sends from inside another action's transaction (the notification bot's announcements). */
export async function sendMessageInTransaction(tx: SendTx, sender: User, request: SendMessageRequest): Promise<SendMessageResult> {
  return await store(tx, sender, await prepare(tx, sender, await getRealm(tx), request));
}

// The sender is usually subscribed already; the list is then shared, not copied.
const withSender = (subscriberIds: readonly number[], senderId: number): readonly number[] => (subscriberIds.includes(senderId) ? subscriberIds : [...subscriberIds, senderId]);

async function store(tx: SendTx, sender: User, draft: Draft): Promise<SendMessageResult> {
  const { realm } = draft;
  const destination = await resolveDestination(tx, sender, realm, draft.address);
  const isChannel = destination.kind === "channel";
  const recipientIds = isChannel ? withSender(destination.subscriberIds, sender.id) : destination.participants.map((user) => user.id);
  const bits = await applyMentions(tx, sender, realm, draft.rendered, destination, draft.topic, recipientIds);
  await addAlertWordBits(tx, bits, draft.content, sender.id, recipientIds);
  await markReadForMuters(tx, bits, sender.id, recipientIds);
  if (draft.readBySender) bits.set(sender.id, (bits.get(sender.id) ?? 0) | Flag.READ);

  const where: TopicInSending | null = isChannel ? { channelId: destination.channel.id, topic: draft.topic, channelMuted: destination.senderMuted } : null;
  // Bots have no one to show followed topics to.
  const senderChange = where && !sender.isBot ? await senderTopicPolicyChange(tx, sender, where) : null;
  // Uploads the message links, if it names any (then has_attachment is set).
  const claimed = draft.rendered.attachmentPathIds.length === 0 ? [] : await claimableAttachments(tx, sender, realm, draft.rendered.attachmentPathIds);
  const sentAt = now();
  const message = await insertMessage(tx, {
    recipientId: destination.recipientId,
    channelId: isChannel ? destination.channel.id : null,
    topic: draft.topic,
    topicKey: topicKeyOf(draft.topic),
    senderId: sender.id,
    content: draft.content,
    renderedContent: draft.rendered.html,
    client: draft.client,
    dateSent: sentAt,
    isMeMessage: draft.rendered.isMeMessage,
    hasLink: draft.rendered.hasLink,
    hasImage: draft.rendered.hasImage,
    hasAttachment: claimed.length > 0,
  });
  await insertMessageFlags(tx, [...bits].map(([userId, flags]) => ({ userId, messageId: message.id, recipientId: message.recipientId, flags })));
  await linkNewMessage(tx, message.id, claimed);
  // The channel's first message: its first_message_id goes from null to this one.
  if (isChannel && destination.channel.firstMessageId === null) await refreshFirstMessageId(tx, destination.channel);
  if (where) {
    const changes = [...(senderChange ? [senderChange] : []), ...(await mentionedTopicPolicyChanges(tx, sender.id, where, draft.rendered.mentionedUserIds.filter((id) => recipientIds.includes(id))))];
    await applyTopicPolicyChanges(tx, where, changes, sentAt);
  }

  const flagsByUser = new Map([...bits].map(([userId, flags]) => [userId, apiFlags(flags, (flags & Flag.READ) !== 0)]));
  await emitMessage(tx, realm, { message, sender, destination, recipientIds, flagsByUser, localEcho: draft.localEcho });
  await queueOutgoingWebhooks(tx, realm, { message, sender, destination, mentionedUserIds: draft.rendered.mentionedUserIds });
  // Bots hear of direct messages through their webhooks, not notifications.
  const notifiable = isChannel ? recipientIds : destination.participants.filter((user) => !user.isBot).map((user) => user.id);
  await queueMessageNotifications(tx, { id: message.id, senderId: sender.id, direct: !isChannel }, notifiable, bits);
  return senderChange ? { id: message.id, automatic_new_visibility_policy: senderChange.policy } : { id: message.id };
}

