import type { OutgoingWebhookPayload } from "../db/outbox";
import { findWebhookBot } from "../db/outgoingWebhookBots";
import { getRealm, realmHost, type Realm } from "../db/realm";
import { read } from "../db/transaction";
import type { BotService, User } from "../db/users";
import { BotType } from "../model/bots";

/**
 * What an outgoing-webhook notification POSTs to the bot's service (spec 4.20): the native JSON
 * body or the Slack-compatible form, built from the queued payload (actions/outgoingWebhooks.ts)
 * and the bot as it is when the notification is made.
 */

/** What one delivery needs, read when it is made: the bot may have changed or gone since. */
export interface WebhookTarget {
  bot: User;
  service: BotService;
  realm: Realm;
}

export function webhookTarget(payload: OutgoingWebhookPayload): Promise<WebhookTarget | undefined> {
  return read(async (db) => {
    const found = await findWebhookBot(db, payload.bot_id);
    if (!found || !found.bot.isActive || found.bot.botType !== BotType.OUTGOING_WEBHOOK) return undefined;
    return { ...found, realm: await getRealm(db) };
  });
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
