import { parseConversation, parsePushPayload, type MessagePush, type NotificationData, type RemovePush } from "./payload";
import { conversationHash, type OpenRequest } from "./protocol";
import type { ServiceWorkerScope, WindowClient } from "./scope";

/**
 * Parley's service worker, served at /sw.js for the whole site. It does only what a closed tab
 * cannot: show the messages the server pushes, close them again when they are read elsewhere,
 * and open the conversation when one is clicked. It caches nothing, so an upgraded server's
 * pages are never served stale (WEB.md: "a shell cache serves stale code after an upgrade").
 */

/** Parley's icon in the bundle (web/assets/build.ts defines it), for pushes that bring none. */
declare const PARLEY_ICON: string;

const worker = self as unknown as ServiceWorkerScope;

// A new version takes over at once: there is no cache whose pages it could disagree with.
worker.addEventListener("install", (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener("activate", (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener("push", (event) => {
  let data: unknown = null;
  try {
    data = event.data?.json();
  } catch {
    // Not JSON: nothing we know how to show.
  }
  const push = parsePushPayload(data);
  if (push?.kind === "message") event.waitUntil(show(push));
  else if (push?.kind === "remove") event.waitUntil(remove(push));
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data as Partial<NotificationData> | null;
  const conversation = parseConversation(data?.conversation);
  const hash = conversation && typeof data?.message_id === "number" ? conversationHash(conversation, data.message_id) : "";
  event.waitUntil(open(hash));
});

const windows = () => worker.clients.matchAll({ type: "window", includeUncontrolled: true });
const isChat = (client: WindowClient) => new URL(client.url).pathname === "/";

async function show(push: MessagePush) {
  // Someone looking at Parley right now sees the message on the page.
  if ((await windows()).some((client) => client.visibilityState === "visible" && client.focused)) return;
  // A chat open in a hidden tab may have shown this message already (behaviour/notifications.ts
  // shows it through this registration, with its ID, while this browser gets pushes).
  const shown = await worker.registration.getNotifications();
  if (shown.some((notification) => (notification.data as Partial<NotificationData> | null)?.message_id === push.message_id)) return;
  const data: NotificationData = { message_id: push.message_id, conversation: push.conversation };
  // renotify: a conversation's next message replaces its notification and still alerts.
  const options: NotificationOptions & { renotify: boolean } = { body: push.body, tag: push.tag, data, icon: push.icon ?? PARLEY_ICON, renotify: true };
  await worker.registration.showNotification(push.title, options);
}

async function remove(push: RemovePush) {
  const ids = new Set(push.message_ids);
  for (const notification of await worker.registration.getNotifications()) {
    if (ids.has((notification.data as Partial<NotificationData> | null)?.message_id ?? 0)) notification.close();
  }
}

/** Shows the place in a chat already open, else in another Parley page, else in a new window. */
async function open(hash: string) {
  const open = await windows();
  const chat = open.find(isChat);
  if (chat) {
    await chat.focus().catch(() => undefined);
    chat.postMessage({ kind: "parley-open", hash } satisfies OpenRequest);
    return;
  }
  const url = `/${hash}`;
  // navigate() works only on pages this worker controls; the others get a new window.
  for (const client of open) {
    const moved = await client.navigate(url).catch(() => null);
    if (moved) {
      await moved.focus().catch(() => undefined);
      return;
    }
  }
  await worker.clients.openWindow(url);
}
