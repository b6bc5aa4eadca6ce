import type { OutgoingWebhookPayload } from "../db/outbox";
import { webhookServiceUrl } from "../db/outgoingWebhookBots";
import { read } from "../db/transaction";
import { ServiceInterface } from "../model/bots";
import { SERVER_VERSION } from "../version";
import { AnswerTooLarge, outboundFetch, type OutboundAnswer } from "../net/outboundFetch";
import { RequestRefused } from "../net/outboundPolicy";
import { notifyBotOwner, postBotReply } from "./botReplies";
import { type Deliverer, GiveUp, RetryLater } from "./deliverers";
import { nativeWebhookBody, slackWebhookBody, webhookTarget } from "./webhookBodies";

/**
 * Delivers outgoing-webhook notifications (spec 4.20) queued by actions/outgoingWebhooks.ts:
 * one POST to the bot's service (the body: webhookBodies.ts), then what its answer asks for
 * (botReplies.ts). Answers follow the reference: `content` (or `response_string`; `text` for
 * the Slack format) makes the bot reply in the conversation, `response_not_required` or an
 * empty answer makes it say nothing.
 *
 * Failures: a timeout, a connection error or a 5xx/408/429 answer is tried again with the
 * outbox's backoff; after the last try the bot says "Failure! Bot is unavailable" (or "Third
 * party responded with <status>") in the conversation and the notification bot tells its
 * owner why. A URL the outgoing-request policy refuses (net/outboundPolicy.ts, which also
 * makes the request: net/outboundFetch.ts), another 4xx or an answer too long to read is not
 * retried. The reference does not retry 5xx answers; a service restarting is the common cause
 * of those, so here they are retried.
 */

export interface WebhookSettings {
  timeoutSeconds: number;
  /** Tries before giving up (the first included). */
  maxAttempts: number;
  /** Requests under way at once to one service (PARLEY_OUTBOX_WEBHOOK_CONCURRENCY). */
  concurrencyPerService: number;
}

let settings: WebhookSettings = { timeoutSeconds: 10, maxAttempts: 4, concurrencyPerService: 1 };

export function configureOutgoingWebhooks(values: WebhookSettings) {
  settings = values;
}

/** A service answer longer than this is not read: no reply is that long. */
const MAX_ANSWER_BYTES = 1 << 20;

const RETRIED_STATUSES = new Set([408, 429]);

export const outgoingWebhook: Deliverer<"outgoing_webhook"> = {
  get maxAttempts() {
    return settings.maxAttempts;
  },
  /**
   * One lane per service, by the scheme, host and port of the bot's URL when the item is first
   * seen: bots sharing a service share its bound and its backoff, however many there are. A
   * bot's notifications go one at a time, so its replies come in the order of the messages.
   */
  async route(payload) {
    const url = await read((db) => webhookServiceUrl(db, payload.bot_id));
    let lane = `webhook bot ${payload.bot_id}`;
    try {
      if (url !== undefined) lane = `webhook ${new URL(url).origin}`;
    } catch {
      lane = `webhook ${url}`;
    }
    return { lane, limit: settings.concurrencyPerService, inOrder: `bot ${payload.bot_id}` };
  },
  async deliver(payload, attempt) {
    const target = await webhookTarget(payload);
    // A bot deactivated (or changed into another kind) since the message: nothing to notify.
    if (!target) return;
    const slack = target.service.interface === ServiceInterface.SLACK;
    const form = slack ? slackWebhookBody(target, payload) : undefined;
    if (slack && !form) {
      await postBotReply(payload, "Failure! Slack outgoing webhooks don't support direct messages.");
      return;
    }
    const headers: Record<string, string> = {
      "User-Agent": `ParleyOutgoingWebhook/${SERVER_VERSION}`,
      // The same on every try of one notification, so a service may drop repeats.
      "X-Parley-Delivery": String(attempt.itemId),
    };
    let body: string;
    if (form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = form.toString();
    } else {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(nativeWebhookBody(target, payload));
    }

    let answer: OutboundAnswer;
    try {
      answer = await outboundFetch(target.service.baseUrl, { method: "POST", headers, body, timeoutMs: settings.timeoutSeconds * 1000, maxAnswerBytes: MAX_ANSWER_BYTES, ownUrl: target.realm.url });
    } catch (error) {
      if (error instanceof RequestRefused) throw new GiveUp(`The webhook was not sent: ${error.message}.`);
      if (error instanceof AnswerTooLarge) throw new GiveUp(`The webhook's answer was not read: ${error.message}.`);
      const name = (error as Error)?.name;
      if (name === "TimeoutError" || name === "AbortError") throw new RetryLater(`Request timed out after ${settings.timeoutSeconds} seconds.`);
      throw new RetryLater(`When trying to send a request to the webhook service, an exception occurred:\n\`\`\`\n${(error as Error)?.message ?? error}\n\`\`\``);
    }

    const { status, body: text } = answer;
    if (status >= 200 && status < 300) return await handleAnswer(payload, text, slack);
    const detail = `The webhook got a response with status code *${status}*.${text.trim() === "" ? "" : `\nThe response contains the following payload:\n\`\`\`\n${text.slice(0, 2000)}\n\`\`\``}`;
    if (status >= 500 || RETRIED_STATUSES.has(status)) throw new RetryLater(detail);
    if (status >= 300 && status < 400) throw new GiveUp(`${detail}\nRedirects are not followed; give the bot the final URL.`);
    throw new GiveUp(detail);
  },
  async gaveUp(payload, error) {
    // The reference's words: the service's status when it answered, otherwise unavailable.
    const status = /status code \*(\d+)\*/.exec(error)?.[1];
    await postBotReply(payload, status ? `Failure! Third party responded with ${status}` : "Failure! Bot is unavailable");
    await notifyBotOwner(payload, error);
  },
};

/** A 2xx answer: a reply to post, nothing, or an answer the bot cannot use (reported, not retried). */
async function handleAnswer(payload: OutgoingWebhookPayload, text: string, slack: boolean) {
  if (text.trim() === "") return;
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return await unusableAnswer(payload, text, "Invalid JSON in response");
  }
  // Older bot servers answered the JSON string "" for "no reply".
  if (answer === "") return;
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return await unusableAnswer(payload, text, "Invalid response format");
  const content = replyContent(answer as Record<string, unknown>, slack);
  if (content === null || content.trim() === "") return;
  await postBotReply(payload, content);
}

function replyContent(answer: Record<string, unknown>, slack: boolean): string | null {
  const asText = (value: unknown) => (value === null || value === undefined ? null : typeof value === "string" ? value : JSON.stringify(value));
  if (slack) return "text" in answer ? asText(answer.text) : null;
  if (answer.response_not_required === true) return null;
  if ("response_string" in answer) return asText(answer.response_string);
  if ("content" in answer) return asText(answer.content);
  return null;
}

async function unusableAnswer(payload: OutgoingWebhookPayload, text: string, reason: string) {
  await postBotReply(payload, `Failure! ${reason}`);
  await notifyBotOwner(
    payload,
    `The outgoing webhook server attempted to send a message, but that request resulted in the following error:\n> ${reason}\nThe response contains the following payload:\n\`\`\`\n${text.slice(0, 2000)}\n\`\`\``,
  );
}
