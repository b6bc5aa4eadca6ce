import { realmNow } from "../db/realmNow";
import { write } from "../db/transaction";
import type { User } from "../db/users";
import { deleteWebPushSubscription, deleteWebPushSubscriptionsByIds, noteWebPushDelivered, saveWebPushSubscription } from "../db/webPushSubscriptions";
import { badRequest } from "../http/errors";
import { now } from "../model/clock";
import { refusalAtFirstSight } from "../net/outboundPolicy";

/**
 * A browser's Web Push subscription, as its PushSubscription gives it: the push service's
 * endpoint (RFC 8030) and the keys its messages are encrypted to (RFC 8291). The server posts to
 * the endpoint on the user's behalf, so the endpoint is held to the rule every outgoing request
 * follows (net/outboundPolicy.ts): refused at once when it plainly breaks it, checked again at
 * every delivery. Any RFC 8030 service works, browsers' and others' (ntfy, UnifiedPush).
 */

export const MAX_ENDPOINT_LENGTH = 2048;

export interface WebPushSubscriptionInput {
  endpoint: string;
  p256dh: string;
  auth: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The bytes of a base64url value, or null when it is not one. */
function base64urlBytes(value: string): Uint8Array | null {
  if (!BASE64URL.test(value)) return null;
  return new Uint8Array(Buffer.from(value.replace(/=+$/, ""), "base64url"));
}

function checkKeys(input: WebPushSubscriptionInput) {
  const publicKey = base64urlBytes(input.p256dh);
  // An uncompressed P-256 point: 0x04, then X and Y of 32 bytes each.
  if (publicKey === null || publicKey.length !== 65 || publicKey[0] !== 0x04) throw badRequest("Invalid p256dh: expected the subscription's P-256 public key, 65 bytes in base64url.");
  const auth = base64urlBytes(input.auth);
  if (auth === null || auth.length !== 16) throw badRequest("Invalid auth: expected the subscription's 16-byte authentication secret in base64url.");
}

async function checkEndpoint(endpoint: string) {
  if (endpoint.length > MAX_ENDPOINT_LENGTH) throw badRequest(`Invalid endpoint: longer than ${MAX_ENDPOINT_LENGTH} characters.`);
  const realm = await realmNow();
  const refused = refusalAtFirstSight(endpoint, realm?.url ?? "");
  if (refused) throw badRequest(`endpoint '${endpoint}' is refused: ${refused}.`);
}

function checkHuman(user: User) {
  if (user.isBot) throw badRequest("This endpoint does not accept bot requests.");
}

/** POST /users/me/web_push_subscriptions: saved for this user (again, harmlessly, if it is already). */
export async function addWebPushSubscription(user: User, input: WebPushSubscriptionInput): Promise<{ id: number }> {
  checkHuman(user);
  await checkEndpoint(input.endpoint);
  checkKeys(input);
  const id = await write((tx) => saveWebPushSubscription(tx, { userId: user.id, endpoint: input.endpoint, p256dh: input.p256dh, auth: input.auth, createdAt: now() }));
  return { id };
}

/** DELETE /users/me/web_push_subscriptions: the user's own subscription with this endpoint. */
export async function removeWebPushSubscription(user: User, endpoint: string) {
  checkHuman(user);
  await write(async (tx) => {
    if (!(await deleteWebPushSubscription(tx, user.id, endpoint))) throw badRequest("No such subscription: this endpoint is not subscribed for you.");
  });
}

/** The push service says these subscriptions no longer exist (404, 410): forgotten. */
export const forgetGoneWebPushSubscriptions = (ids: number[]) => write((tx) => deleteWebPushSubscriptionsByIds(tx, ids));

/** Pushes were accepted for these subscriptions: shown in the person's list of devices. */
export const noteWebPushDeliveries = (ids: number[]) => write((tx) => noteWebPushDelivered(tx, ids, now()));
