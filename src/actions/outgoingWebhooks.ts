import { realmLinkifiers } from "../db/linkifiers";
import type { Message } from "../db/messages";
import { outgoingWebhookBotIds } from "../db/outgoingWebhookBots";
import { enqueueOutbox, type OutgoingWebhookPayload } from "../db/outbox";
import type { Realm } from "../db/realm";
import type { SendTx } from "../db/types";
import { findUserById, type User } from "../db/users";
import { BotType } from "../model/bots";
import { now } from "../model/clock";
import type { Destination } from "../messages/recipients";
import { forClient, messageFields, messageViewerIn } from "../shapes/messages";

/**
 * Outgoing-webhook bots (spec 4.20, 5.5): a message that mentions one in a channel, or is a
 * direct message to one, is queued in the send's own transaction for the outbox to POST to
 * the bot's service; the service's answer may make the bot reply in the same conversation.
 * This file decides what is queued; the outbox sends it (outbox/webhooks.ts, with the bodies in
 * outbox/webhookBodies.ts) and posts what the service answers (outbox/botReplies.ts).
 */

export interface TriggeringSend {
  message: Message;
  sender: User;
  destination: Destination;
  /** Users mentioned by name (not silently), from rendering. */
  mentionedUserIds: readonly number[];
}

/**
 * Runs in every send, so it must cost nothing when no webhook bot is involved: a bot's own
 * message never triggers (as in the reference, so two bots cannot answer each other forever),
 * and the cached set of webhook bots is empty in most organizations.
 */
export async function queueOutgoingWebhooks(tx: SendTx, realm: Realm, sent: TriggeringSend) {
  if (sent.sender.isBot) return;
  const botIds = await outgoingWebhookBotIds(tx);
  if (botIds.size === 0) return;
  const { destination, sender } = sent;
  // Channel messages trigger the bots they mention; direct messages every bot in them.
  const triggered =
    destination.kind === "channel"
      ? sent.mentionedUserIds.filter((id) => botIds.has(id))
      : destination.participants.filter((user) => user.id !== sender.id && user.botType === BotType.OUTGOING_WEBHOOK && user.isActive).map((user) => user.id);
  if (triggered.length === 0) return;
  const trigger = destination.kind === "channel" ? "mention" : "direct_message";
  const reply_to: OutgoingWebhookPayload["reply_to"] =
    destination.kind === "channel"
      ? { type: "stream", stream_id: destination.channel.id, topic: sent.message.topic }
      : { type: "private", user_ids: destination.participants.map((user) => user.id) };
  const parts = { message: sent.message, sender, recipient: destination.kind === "channel" ? { channelName: destination.channel.name } : { users: destination.participants } };
  const linkifiers = await realmLinkifiers(tx);
  for (const botId of new Set(triggered)) {
    const bot = destination.kind === "direct" ? destination.participants.find((user) => user.id === botId) : await findUserById(tx, botId);
    if (!bot) continue;
    // The message as the bot would fetch it: raw Markdown with the rendered HTML beside it (2.3).
    const fields = messageFields(parts, { ...messageViewerIn(realm, bot), linkifiers });
    const message = forClient(fields, { applyMarkdown: false, clientGravatar: false, allowEmptyTopicName: true, emptyTopicDisplayName: "", keepRenderedContent: true }, true);
    await enqueueOutbox(tx, { kind: "outgoing_webhook", payload: { bot_id: botId, trigger, message: message as OutgoingWebhookPayload["message"], reply_to } }, now());
  }
}
