import { signal } from "@preact/signals";
import type { OpenRequest } from "../../serviceWorker/protocol";
import { keepPushSubscription, registerServiceWorker, subscribeToPush, type PushOutcome } from "../../ui/webPush";
import { hashToPlace } from "../model/narrow";
import { goTo } from "../state/place";
import { me } from "../state/store";
import { askNotificationPermission, pushRegistration } from "./notifications";

/**
 * Notifications while Parley is closed (web push): the service worker is registered on every
 * load, so a click on a notification finds its way here and "read elsewhere" closes it; where
 * the person has allowed notifications, this browser's subscription is made or kept and given
 * to the server again (which takes it again without a second row).
 */

/** Why this browser gets no pushes, said once after the person turned notifications on; null when all is well. */
export const pushNote = signal<string | null>(null);

/** Notifications go through the worker once this browser gets pushes; says why not when it cannot. */
async function follow(subscribing: Promise<PushOutcome>): Promise<string | null> {
  const outcome = await subscribing;
  if (!outcome.on) return outcome.reason;
  pushRegistration.value = await navigator.serviceWorker.ready;
  return null;
}

/** Called once the chat is drawn. */
export function keepWebPush() {
  if (!("serviceWorker" in navigator)) return;
  // The worker asks us to show a conversation when one of its notifications is clicked.
  navigator.serviceWorker.addEventListener("message", (event: MessageEvent<OpenRequest>) => {
    if (event.data?.kind !== "parley-open") return;
    const place = hashToPlace(event.data.hash, me.value.userId);
    // Through the chat's own hash, with the names the worker does not know.
    if (place) goTo(place.narrow, place.anchor);
  });
  navigator.serviceWorker.startMessages();
  void registerServiceWorker().then(() => {
    if (typeof Notification !== "undefined" && Notification.permission === "granted") void follow(keepPushSubscription());
  });
}

/** The sidebar's "Turn on notifications": the permission first (from the click), then the subscription. */
export async function turnOnNotifications() {
  await askNotificationPermission();
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  const reason = await follow(subscribeToPush());
  // Quietly: the page's own notifications work all the same.
  if (reason) pushNote.value = `${reason} Notifications show while Parley is open in a tab.`;
}
