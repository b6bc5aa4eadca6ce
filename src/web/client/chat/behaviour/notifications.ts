import { signal } from "@preact/signals";
import { conversationOf, isMention } from "../model/narrow";
import type { Message } from "../model/types";
import { onNewMessage } from "../state/events";
import { goTo } from "../state/place";
import { channelName, me, mutedUsers, topicLabel, userSettings } from "../state/store";

/**
 * Browser notifications for direct messages and mentions, while the tab is hidden or not
 * focused, with the person's permission and within their notification settings. The
 * permission is asked only from a click (browsers ignore a request nobody asked for).
 */

const supported = typeof Notification !== "undefined";
export const notificationPermission = signal<NotificationPermission | "unsupported">(supported ? Notification.permission : "unsupported");

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
  const notification = new Notification(`${message.sender_full_name}${where}`, {
    body: showContent ? plainText(message.content).slice(0, 200) : "New direct message",
    tag: `parley-${message.id}`,
  });
  notification.onclick = () => {
    focus();
    goTo(conversationOf(message, me.value.userId), message.id);
    notification.close();
  };
}

export function notifyOnMessages() {
  onNewMessage((message, fromMe) => {
    if (fromMe || !supported || Notification.permission !== "granted") return;
    if (document.visibilityState === "visible" && document.hasFocus()) return;
    if (wanted(message)) notify(message);
  });
}
