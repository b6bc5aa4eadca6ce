import webpush from "web-push";
import { notifyOfMessage } from "../actions/messageNotifications";
import { forgetGoneWebPushSubscriptions, noteWebPushDeliveries } from "../actions/webPushSubscriptions";
import { pushServiceOf, queueWebPushesAgain } from "../actions/webPushQueueing";
import type { WebPushPayload } from "../db/columnTypes";
import { realmNow } from "../db/realmNow";
import { read } from "../db/transaction";
import { type WebPushSubscription, webPushSubscriptionsByIds } from "../db/webPushSubscriptions";
import { AnswerTooLarge, outboundFetch } from "../net/outboundFetch";
import { RequestRefused } from "../net/outboundPolicy";
import { storedWebPushKeys } from "../reads/webPushKeys";
import { GiveUp, RetryLater, type Deliverer } from "./deliverers";

/**
 * Web Push (RFC 8030 delivery, RFC 8291 aes128gcm encryption, RFC 8292 VAPID), in two steps
 * through the outbox: a message's item becomes one item per subscription to push
 * (actions/webPushFanOut.ts), and each of those is encrypted to its browser's keys, signed with
 * the server's key and posted to the push service, by the same outgoing-request rule as webhooks
 * (net/). web-push does the encryption and the signature; the request is ours, so the rule holds.
 */

const TIMEOUT_MS = 10_000;
/** Deliveries at once to one push service (FCM, Mozilla's, Apple's, an ntfy server). */
const PER_SERVICE = 16;

let emailDelayCapSeconds: number | null = null;
let retry = { baseSeconds: 60, maxSeconds: 3600 };

/**
 * PARLEY_MISSED_MESSAGE_EMAIL_DELAY_SECONDS: a cap on the people's batching periods (tests,
 * impatient operators); and the outbox's backoff, which subscriptions a try could not reach
 * keep when they go on in an item of their own.
 */
export function configureMessageNotifications(options: { emailDelayCapSeconds: number | null; retryBaseSeconds: number; retryMaxSeconds: number }) {
  emailDelayCapSeconds = options.emailDelayCapSeconds;
  retry = { baseSeconds: Math.max(1, options.retryBaseSeconds), maxSeconds: Math.max(1, options.retryMaxSeconds) };
}

const backoffSeconds = (tries: number) => Math.min(retry.baseSeconds * 2 ** Math.max(0, tries - 1), retry.maxSeconds);

/** Who hears of a message while away, and how (actions/messageNotifications.ts). */
export const messageNotifications: Deliverer<"message_notifications"> = {
  route: () => ({ lane: "message notifications", limit: 4 }),
  async deliver(payload) {
    await notifyOfMessage(payload, { emailDelayCapSeconds });
  },
  maxAttempts: 10,
  quiet: true,
};

/**
 * The VAPID header for a push service (RFC 8292): a signed token naming the service's origin,
 * valid for hours, so one is made per service and reused until an hour before it expires,
 * rather than signed again for each of a burst's thousand pushes.
 */
const VAPID_VALID_SECONDS = 12 * 3600;
const vapidTokens = new Map<string, { authorization: string; publicKey: string; renewAfter: number }>();

function vapidAuthorization(endpoint: string, ownUrl: string, keys: { publicKey: string; privateKey: string }): string {
  const audience = new URL(endpoint).origin;
  const nowSeconds = Math.floor(Date.now() / 1000);
  const kept = vapidTokens.get(audience);
  if (kept && kept.publicKey === keys.publicKey && kept.renewAfter > nowSeconds) return kept.authorization;
  const subject = ownUrl.startsWith("https:") ? ownUrl : "mailto:postmaster@localhost";
  const expiration = nowSeconds + VAPID_VALID_SECONDS;
  const { Authorization: authorization } = webpush.getVapidHeaders(audience, subject, keys.publicKey, keys.privateKey, "aes128gcm", expiration) as { Authorization: string };
  if (vapidTokens.size > 1000) vapidTokens.clear();
  vapidTokens.set(audience, { authorization, publicKey: keys.publicKey, renewAfter: expiration - 3600 });
  return authorization;
}

type PushOutcome = { kind: "delivered" } | { kind: "gone" } | { kind: "refused"; why: string } | { kind: "retry"; why: string; answered: boolean };

/** One push to one subscription; never throws. */
async function pushTo(subscription: WebPushSubscription, payload: WebPushPayload, keys: { publicKey: string; privateKey: string }, ownUrl: string): Promise<PushOutcome> {
  let status: number;
  try {
    const request = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, payload.data, {
      // The signature is ours, kept per push service (above); web-push encrypts.
      vapidDetails: null as never,
      headers: { Authorization: vapidAuthorization(subscription.endpoint, ownUrl, keys) },
      TTL: payload.ttl,
      urgency: payload.urgency,
      contentEncoding: "aes128gcm",
    });
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    ({ status } = await outboundFetch(subscription.endpoint, { method: "POST", headers, body: new Uint8Array(request.body as Buffer), timeoutMs: TIMEOUT_MS, maxAnswerBytes: 64 * 1024, ownUrl }));
  } catch (error) {
    if (error instanceof RequestRefused) return { kind: "refused", why: `The push was not sent: ${error.message}.` };
    if (error instanceof AnswerTooLarge) return { kind: "delivered" };
    return { kind: "retry", why: `The push service could not be reached: ${(error as Error)?.message ?? error}`, answered: false };
  }
  if (status >= 200 && status < 300) return { kind: "delivered" };
  // The subscription expired or was withdrawn in the browser: forgotten, never tried again.
  if (status === 404 || status === 410) return { kind: "gone" };
  if (status === 429 || status >= 500) return { kind: "retry", why: `The push service answered ${status}.`, answered: true };
  return { kind: "refused", why: `The push service refused the push (${status}).` };
}

/** Runs `work` on every item, at most `limit` at once. */
async function eachAtMost<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

const MAX_TRIES = 8;

/**
 * One push to the subscriptions of one push service (actions/webPushQueueing.ts). Those the
 * service has forgotten (404, 410) are removed; those it could not take now (429, 5xx, no
 * answer) go on in an item of their own after the outbox's backoff, or, when none could be
 * reached, this item is tried again as a whole.
 */
export const webPush: Deliverer<"web_push"> = {
  async route(payload) {
    const [first] = await read((db) => webPushSubscriptionsByIds(db, payload.subscription_ids.slice(0, 1)));
    const service = first ? pushServiceOf(first.endpoint) : "gone";
    // A service's items in order: a withdrawal never overtakes the push it withdraws.
    return { lane: `web push ${service}`, limit: 4, inOrder: `web push ${service}` };
  },
  async deliver(payload, attempt) {
    const subscriptions = await read((db) => webPushSubscriptionsByIds(db, payload.subscription_ids));
    // Unsubscribed since: nothing to deliver.
    if (subscriptions.length === 0) return;
    const keys = await storedWebPushKeys();
    if (!keys) throw new RetryLater("The server's Web Push keys are not made yet.");
    const ownUrl = (await realmNow())?.url ?? "";
    const delivered: WebPushSubscription[] = [];
    const gone: number[] = [];
    const again: WebPushSubscription[] = [];
    let lastProblem: PushOutcome | null = null;
    await eachAtMost(subscriptions, PER_SERVICE, async (subscription) => {
      const outcome = await pushTo(subscription, payload, keys, ownUrl);
      if (outcome.kind === "delivered") delivered.push(subscription);
      else if (outcome.kind === "gone") gone.push(subscription.id);
      else if (outcome.kind === "retry") again.push(subscription);
      if (outcome.kind === "retry" || outcome.kind === "refused") lastProblem = outcome;
    });
    if (gone.length > 0) await forgetGoneWebPushSubscriptions(gone);
    // Shown in the person's list of devices; a minute's precision is plenty.
    const nowSeconds = Math.floor(Date.now() / 1000);
    const stale = delivered.filter((row) => (row.lastDeliveredAt ?? 0) < nowSeconds - 60).map((row) => row.id);
    if (stale.length > 0) await noteWebPushDeliveries(stale);
    const problem = lastProblem as PushOutcome | null;
    if (again.length === 0) {
      if (delivered.length === 0 && problem?.kind === "refused") throw new GiveUp(problem.why);
      if (delivered.length === 0 && gone.length > 0) throw new GiveUp(`The push service says the subscription is gone; it was removed.`);
      return;
    }
    const tries = (payload.earlier_tries ?? 0) + attempt.number;
    const why = problem && "why" in problem ? problem.why : "The push service could not take the push.";
    if (tries >= MAX_TRIES) throw new GiveUp(`${why} (${again.length} of ${subscriptions.length} subscriptions, after ${tries} tries)`);
    // Nobody reached: this item again, with the outbox's backoff for the whole service.
    if (again.length === subscriptions.length) throw new RetryLater(why, { destinationAnswered: problem?.kind === "retry" && problem.answered });
    const at = Math.floor(Date.now() / 1000);
    await queueWebPushesAgain(again, { data: payload.data, urgency: payload.urgency, ttl: payload.ttl, earlierTries: tries }, at, at + backoffSeconds(tries));
  },
  maxAttempts: MAX_TRIES,
  quiet: true,
};
