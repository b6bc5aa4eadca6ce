import { database } from "../db/client";
import { realmLinkifiers } from "../db/linkifiers";
import type { Message } from "../db/messages";
import { findWebhookBot, outgoingWebhookBotIds } from "../db/outgoingWebhookBots";
import { enqueueOutbox, type OutgoingWebhookPayload } from "../db/outbox";
import { getRealm, realmHost, type Realm } from "../db/realm";
import type { SendTx } from "../db/types";
import { findUserByEmail, findUserById, type BotService, type User } from "../db/users";
import { log } from "../log";
import { BotType } from "../model/bots";
import { now } from "../model/clock";
import type { Destination } from "../messages/recipients";
import { encodeHashComponent, messageNarrowUrl } from "../render/urls";
import { forClient, messageFields, messageViewerIn } from "../shapes/messages";
import { sendMessage } from "./sendMessage";

/**
 * Outgoing-webhook bots (spec 4.20, 5.5): a message that mentions one in a channel, or is a
 * direct message to one, is queued in the send's own transaction for the outbox to POST to
 * the bot's service; the service's answer may make the bot reply in the same conversation.
 * The HTTP side is outbox/webhooks.ts; this file decides what is sent and what an answer does.
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
export function queueOutgoingWebhooks(tx: SendTx, realm: Realm, sent: TriggeringSend) {
  if (sent.sender.isBot) return;
  const botIds = outgoingWebhookBotIds(tx);
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
  const linkifiers = realmLinkifiers(tx);
  for (const botId of new Set(triggered)) {
    const bot = destination.kind === "direct" ? destination.participants.find((user) => user.id === botId) : findUserById(tx, botId);
    if (!bot) continue;
    // The message as the bot would fetch it: raw Markdown with the rendered HTML beside it (2.3).
    const fields = messageFields(parts, { ...messageViewerIn(realm, bot), linkifiers });
    const message = forClient(fields, { applyMarkdown: false, clientGravatar: false, allowEmptyTopicName: true, emptyTopicDisplayName: "", keepRenderedContent: true }, true);
    enqueueOutbox(tx, { kind: "outgoing_webhook", payload: { bot_id: botId, trigger, message: message as OutgoingWebhookPayload["message"], reply_to } }, now());
  }
}

/** What one delivery needs, read when it is made: the bot may have changed or gone since. */
export interface WebhookTarget {
  bot: User;
  service: BotService;
  realm: Realm;
}

export function webhookTarget(payload: OutgoingWebhookPayload): WebhookTarget | undefined {
  const db = database();
  const found = findWebhookBot(db, payload.bot_id);
  if (!found || !found.bot.isActive || found.bot.botType !== BotType.OUTGOING_WEBHOOK) return undefined;
  return { ...found, realm: getRealm(db) };
}

/** The native body (spec 4.20). `data` is the message's raw Markdown, as in the reference. */
export function nativeWebhookBody(target: WebhookTarget, payload: OutgoingWebhookPayload) {
  return {
    bot_email: target.bot.email,
    bot_full_name: target.bot.fullName,
    data: payload.message.content,
    trigger: payload.trigger,
    token: target.service.token,
    message: payload.message,
  };
}

/**
 * The Slack-compatible body (interface 2), form-encoded with the fields of Slack's legacy
 * outgoing webhooks, filled in as the reference does. Slack's format has no direct messages.
 */
export function slackWebhookBody(target: WebhookTarget, payload: OutgoingWebhookPayload): URLSearchParams | undefined {
  const message = payload.message;
  if (message.type !== "stream") return undefined;
  return new URLSearchParams([
    ["token", target.service.token],
    ["team_id", `T${target.realm.id}`],
    ["team_domain", realmHost(target.realm)],
    ["channel_id", `C${message.stream_id}`],
    ["channel_name", String(message.display_recipient)],
    ["thread_ts", String(message.timestamp)],
    ["timestamp", String(message.timestamp)],
    ["user_id", `U${message.sender_id}`],
    ["user_name", String(message.sender_full_name)],
    ["text", message.content],
    ["trigger_word", payload.trigger],
    ["service_id", String(payload.bot_id)],
  ]);
}

/** The client name the bot's replies carry, the reference's. */
const REPLY_CLIENT = "OutgoingWebhookResponse";

/**
 * The bot says `content` where the triggering message was, through the same send action as
 * POST /messages (rendering, permissions: a bot may post where its owner may). A refused
 * reply is reported to the owner rather than retried: the service did answer.
 */
export async function postBotReply(payload: OutgoingWebhookPayload, content: string) {
  const bot = findUserById(database(), payload.bot_id);
  if (!bot?.isActive) return;
  const to = payload.reply_to;
  try {
    if (to.type === "stream") await sendMessage(bot, { type: "stream", to: String(to.stream_id), topic: to.topic, content, client: REPLY_CLIENT });
    else await sendMessage(bot, { type: "private", to: JSON.stringify(to.user_ids), content, client: REPLY_CLIENT });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    notifyBotOwner(payload, `The outgoing webhook server attempted to send a message, but that request resulted in the following error:\n> ${reason}`);
  }
}

function messageLink(realm: Realm, payload: OutgoingWebhookPayload): string {
  const { message, reply_to } = payload;
  if (reply_to.type === "stream") return realm.url + messageNarrowUrl(reply_to.stream_id, String(message.display_recipient), reply_to.topic, message.id);
  return `${realm.url}/#narrow/dm/${encodeHashComponent(reply_to.user_ids.join(","))}-group/near/${message.id}`;
}

/**
 * The owner hears from the notification bot when their bot's service failed for good (after
 * the last retry, or a refusal that retrying cannot mend), with the reference's wording.
 */
export function notifyBotOwner(payload: OutgoingWebhookPayload, detail: string) {
  const db = database();
  const realm = getRealm(db);
  const bot = findUserById(db, payload.bot_id);
  const owner = bot?.botOwnerId != null ? findUserById(db, bot.botOwnerId) : undefined;
  const notifier = findUserByEmail(db, `notification-bot@${realmHost(realm)}`);
  if (!bot || !owner?.isActive || !notifier) return;
  const content = `[A message](${messageLink(realm, payload)}) to your bot @_**${bot.fullName}|${bot.id}** triggered an outgoing webhook.\n${detail}`;
  sendMessage(notifier, { type: "private", to: JSON.stringify([owner.id]), content, client: "Internal", readBySender: false }).catch((error) =>
    log.warn(`Could not tell the owner of bot ${bot.id} that its outgoing webhook failed: ${error instanceof Error ? error.message : error}`),
  );
}
