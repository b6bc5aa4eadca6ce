import { sendMessage } from "../actions/sendMessage";
import type { OutgoingWebhookPayload } from "../db/outbox";
import { getRealm, realmHost, type Realm } from "../db/realm";
import { read } from "../db/transaction";
import { findUserByEmail, findUserById } from "../db/users";
import { log } from "../log";
import { encodeHashComponent, messageNarrowUrl } from "../render/urls";

/**
 * What comes back from an outgoing-webhook bot's service (outbox/webhooks.ts): the bot's reply
 * in the conversation that triggered it, and a word to the bot's owner when the service failed.
 * Both are messages, sent through actions/sendMessage.ts; this is why outbox/ sits above actions/.
 */

/** The client name the bot's replies carry, the reference's. */
const REPLY_CLIENT = "OutgoingWebhookResponse";

/**
 * The bot says `content` where the triggering message was, through the same send action as
 * POST /messages (rendering, permissions: a bot may post where its owner may). A refused
 * reply is reported to the owner rather than retried: the service did answer.
 */
export async function postBotReply(payload: OutgoingWebhookPayload, content: string) {
  const bot = await read((db) => findUserById(db, payload.bot_id));
  if (!bot?.isActive) return;
  const to = payload.reply_to;
  try {
    if (to.type === "stream") await sendMessage(bot, { type: "stream", to: String(to.stream_id), topic: to.topic, content, client: REPLY_CLIENT });
    else await sendMessage(bot, { type: "private", to: JSON.stringify(to.user_ids), content, client: REPLY_CLIENT });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await notifyBotOwner(payload, `The outgoing webhook server attempted to send a message, but that request resulted in the following error:\n> ${reason}`);
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
export async function notifyBotOwner(payload: OutgoingWebhookPayload, detail: string) {
  const { realm, bot, owner, notifier } = await read(async (db) => {
    const realm = await getRealm(db);
    const bot = await findUserById(db, payload.bot_id);
    const owner = bot?.botOwnerId != null ? await findUserById(db, bot.botOwnerId) : undefined;
    return { realm, bot, owner, notifier: await findUserByEmail(db, `notification-bot@${realmHost(realm)}`) };
  });
  if (!bot || !owner?.isActive || !notifier) return;
  const content = `[A message](${messageLink(realm, payload)}) to your bot @_**${bot.fullName}|${bot.id}** triggered an outgoing webhook.\n${detail}`;
  // Not waited for: the owner's word is a side matter, and a failure to send it is only logged.
  void sendMessage(notifier, { type: "private", to: JSON.stringify([owner.id]), content, client: "Internal", readBySender: false }).catch((error) =>
    log.warn(`Could not tell the owner of bot ${bot.id} that its outgoing webhook failed: ${error instanceof Error ? error.message : error}`),
  );
}
