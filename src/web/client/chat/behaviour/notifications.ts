import { signal } from "@preact/signals";
import type { NotificationData } from "../../serviceWorker/payload";
import { conversationOfNarrow } from "../../serviceWorker/protocol";
import { conversationOf, isMention } from "../model/narrow";
import type { Message } from "../model/types";
import { onNewMessage } from "../state/events";
import { goTo } from "../state/place";
import { channelName, me, mutedUsers, topicLabel, userSettings } from "../state/store";

/**
 * Browser notifications for direct messages and mentions, while the tab is hidden or not
 * focused, with the person's permission and within their notification settings. The
 * permission is asked only from a click (browsers ignore a request nobody asked for).
 * While this browser also gets pushes (behaviour/webPush.ts), they are shown through the
 * service worker's registration instead, with the message's ID, so that the worker and the page
 * each see what the other showed and a message is shown once, and is closed when read elsewhere.
 */

const supported = typeof Notification !== "undefined";
export const notificationPermission = signal<NotificationPermission | "unsupported">(supported ? Notification.permission : "unsupported");

/** The service worker's registration while this browser gets pushes; null otherwise. */
export const pushRegistration = signal<ServiceWorkerRegistration | null>(null);

export async function askNotificationPermission() {
  if (!supported) return;
  notificationPermission.value = await Notification.requestPermission();
}

/** The text of rendered HTML, for a notification's body. */
function plainText(html: string): string {
  const template = document.createElement("template");
  template.innerHTML = html;
  return (template.content.textContent ?? "").replace(/\s+/g, " ").trim();
}

function wanted(message: Message): boolean {
  const settings = userSettings.value;
  if (mutedUsers.value.has(message.sender_id)) return false;
  if (message.type === "private") return settings.enable_desktop_notifications !== false;
  return isMention(message) && settings.enable_desktop_notifications !== false;
}

function notify(message: Message) {
  const where = message.type === "private" ? "" : ` in #${channelName(message.stream_id ?? 0) ?? ""} › ${topicLabel(message.subject)}`;
  const showContent = message.type !== "private" || userSettings.value.pm_content_in_desktop_notifications !== false;
  const title = `${message.sender_full_name}${where}`;
  const options = { body: showContent ? plainText(message.content).slice(0, 200) : "New direct message", tag: `parley-${message.id}` };
  const conversation = conversationOf(message, me.value.userId);
  const registration = pushRegistration.value;
  if (registration) {
    void showThroughWorker(registration, title, { ...options, data: { message_id: message.id, conversation: conversationOfNarrow(conversation)! } });
    return;
  }
  const notification = new Notification(title, options);
  notification.onclick = () => {
    focus();
    goTo(conversation, message.id);
    notification.close();
  };
}

/** Shown unless the worker showed this message's push already; its click goes through the worker (web/client/serviceWorker/). */
async function showThroughWorker(registration: ServiceWorkerRegistration, title: string, options: NotificationOptions & { data: NotificationData }) {
  const shown = await registration.getNotifications().catch(() => []);
  if (shown.some((notification) => (notification.data as Partial<NotificationData> | null)?.message_id === options.data.message_id)) return;
  await registration.showNotification(title, options).catch(() => undefined);
}

export function notifyOnMessages() {
  onNewMessage((message, fromMe) => {
    if (fromMe || !supported || Notification.permission !== "granted") return;
    if (document.visibilityState === "visible" && document.hasFocus()) return;
    if (wanted(message)) notify(message);
  });
}
