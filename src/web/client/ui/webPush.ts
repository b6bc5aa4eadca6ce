import { api } from "./api";

/**
 * This browser's web-push subscription, shared by the chat (which turns it on and keeps it
 * registered) and the settings (which list the person's devices). The service worker at /sw.js
 * shows what the server pushes; the server learns where to push from the subscription's
 * endpoint and keys. Browsers without push (or without a push service, as headless ones) still
 * get the page's own notifications while a tab is open.
 */

export const SERVICE_WORKER_URL = "/sw.js";

export const pushSupported = () => "serviceWorker" in navigator && typeof PushManager !== "undefined" && typeof Notification !== "undefined";

/** Registers the service worker (again: it is cheap, and it keeps clicks and removals working); null where there are none. */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!("serviceWorker" in navigator)) return null;
  return navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: "/" }).catch(() => null);
}

/** The registration, once it is there; without registering it. */
export async function currentRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!("serviceWorker" in navigator)) return null;
  return (await navigator.serviceWorker.getRegistration("/")) ?? null;
}

/** This browser's subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await currentRegistration();
  return registration ? registration.pushManager.getSubscription().catch(() => null) : null;
}

/** The server's VAPID public key (base64url), or null when it cannot push. */
async function serverKey(): Promise<string | null> {
  const settings = await api<{ web_push_public_key?: string | null }>("GET", "/server_settings");
  return settings.web_push_public_key || null;
}

function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

function bytesToBase64Url(buffer: ArrayBuffer | null): string {
  if (!buffer) return "";
  return btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

const sameBytes = (a: ArrayBuffer | null, b: Uint8Array) => !!a && a.byteLength === b.length && new Uint8Array(a).every((byte, index) => byte === b[index]);

/** Tells the server where to push (it takes the same subscription again without a second row). */
const sendToServer = (subscription: PushSubscription) =>
  api("POST", "/users/me/web_push_subscriptions", { endpoint: subscription.endpoint, p256dh: bytesToBase64Url(subscription.getKey("p256dh")), auth: bytesToBase64Url(subscription.getKey("auth")) });

export type PushOutcome =
  | { on: true; endpoint: string }
  /** Why not, in words for the person. */
  | { on: false; reason: string };

/**
 * On each chat load: a subscription this browser has is kept and given to the server again. A new
 * one is made only from a click (subscribeToPush): where push cannot work (Chrome's incognito
 * windows, for one) asking logs an error each time, and a person who removed this browser from
 * their devices would otherwise find it back on the next load.
 */
export async function keepPushSubscription(): Promise<PushOutcome> {
  if ((await currentSubscription()) === null) return { on: false, reason: "This browser is not subscribed." };
  return subscribeToPush();
}

/** Removes a device from the person's list; when it is this browser, its subscription ends here too, so no load sends it again. */
export async function removePushDevice(endpoint: string) {
  await api("DELETE", "/users/me/web_push_subscriptions", { endpoint });
  const mine = await currentSubscription();
  if (mine?.endpoint === endpoint) await mine.unsubscribe().catch(() => undefined);
}

/**
 * Subscribes this browser, or keeps its subscription, and tells the server. Needs the
 * notification permission already granted. A subscription made for another key (the server's
 * key changed) is replaced, since the push service would refuse the server's messages.
 */
export async function subscribeToPush(): Promise<PushOutcome> {
  if (!pushSupported()) return { on: false, reason: "This browser cannot receive notifications while Parley is closed." };
  if (Notification.permission !== "granted") return { on: false, reason: "Notifications are not allowed for this site." };
  const registration = await registerServiceWorker();
  if (!registration) return { on: false, reason: "This browser would not start Parley's service worker." };
  const key = await serverKey().catch(() => null);
  if (!key) return { on: false, reason: "This server cannot send notifications to closed browsers." };
  const applicationServerKey = base64UrlToBytes(key);
  try {
    await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameBytes(subscription.options.applicationServerKey, applicationServerKey)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
    await sendToServer(subscription);
    return { on: true, endpoint: subscription.endpoint };
  } catch {
    // No push service (headless browsers, some privacy settings) or the server refused.
    return { on: false, reason: "This browser cannot receive notifications while Parley is closed." };
  }
}
