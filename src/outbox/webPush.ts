import webpush from "web-push";
import { notifyOfMessage } from "../actions/messageNotifications";
import { forgetGoneWebPushSubscription, noteWebPushDelivery } from "../actions/webPushSubscriptions";
import { realmNow } from "../db/realmNow";
import { read } from "../db/transaction";
import { webPushSubscriptionById } from "../db/webPushSubscriptions";
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

/** PARLEY_MISSED_MESSAGE_EMAIL_DELAY_SECONDS: a cap on the people's batching periods (tests, impatient operators). */
export function configureMessageNotifications(options: { emailDelayCapSeconds: number | null }) {
  emailDelayCapSeconds = options.emailDelayCapSeconds;
}

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

export const webPush: Deliverer<"web_push"> = {
  async route(payload) {
    const subscription = await read((db) => webPushSubscriptionById(db, payload.subscription_id));
    let origin = "gone";
    try {
      if (subscription) origin = new URL(subscription.endpoint).origin;
    } catch {
      // Checked when subscribed; an odd row still gets a lane of its own.
    }
    // One subscription's pushes in order: a withdrawal never overtakes the push it withdraws.
    return { lane: `web push ${origin}`, limit: PER_SERVICE, inOrder: `web push subscription ${payload.subscription_id}` };
  },
  async deliver(payload) {
    const subscription = await read((db) => webPushSubscriptionById(db, payload.subscription_id));
    // Unsubscribed since: nothing to deliver.
    if (!subscription) return;
    const keys = await storedWebPushKeys();
    if (!keys) throw new RetryLater("The server's Web Push keys are not made yet.");
    const realm = await realmNow();
    const ownUrl = realm?.url ?? "";
    const request = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, payload.data, {
      // The signature is ours, kept per push service (below); web-push encrypts.
      vapidDetails: null as never,
      headers: { Authorization: vapidAuthorization(subscription.endpoint, ownUrl, keys) },
      TTL: payload.ttl,
      urgency: payload.urgency,
      contentEncoding: "aes128gcm",
    });
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    let status: number;
    try {
      ({ status } = await outboundFetch(subscription.endpoint, { method: "POST", headers, body: new Uint8Array(request.body as Buffer), timeoutMs: TIMEOUT_MS, maxAnswerBytes: 64 * 1024, ownUrl }));
    } catch (error) {
      if (error instanceof RequestRefused) throw new GiveUp(`The push was not sent: ${error.message}.`);
      if (error instanceof AnswerTooLarge) return;
      throw new RetryLater(`The push service could not be reached: ${(error as Error)?.message ?? error}`);
    }
    if (status >= 200 && status < 300) {
      // Shown in the person's list of devices; a minute's precision is plenty, and saves a write per push in a burst.
      if ((subscription.lastDeliveredAt ?? 0) < Math.floor(Date.now() / 1000) - 60) await noteWebPushDelivery(subscription.id);
      return;
    }
    // The subscription expired or was withdrawn in the browser: forgotten, never tried again.
    if (status === 404 || status === 410) {
      await forgetGoneWebPushSubscription(subscription.id);
      throw new GiveUp(`The push service says the subscription is gone (${status}); it was removed.`);
    }
    if (status === 429 || status >= 500) throw new RetryLater(`The push service answered ${status}.`, { destinationAnswered: true });
    throw new GiveUp(`The push service refused the push (${status}).`);
  },
  maxAttempts: 8,
  quiet: true,
};
