import { signal } from "@preact/signals";
import { narrowContains, type Narrow } from "../../model/narrow";
import type { Message } from "../../model/types";
import { onNewMessage } from "../../state/events";
import { me, mutedUsers, muting, topicLabel } from "../../state/store";

/**
 * What the screen reader hears of the feed: one short line per new message from someone else
 * in the view shown ("Mel Member in #general: first words"), at most one line every two
 * seconds; a burst is summed up by its last message and a count. Never timestamps, never the
 * whole feed.
 */

const EVERY_MS = 2_000;
const TEXT_LENGTH = 80;

export const announcement = signal("");

/** The narrow of the message view on screen; null while none is. */
let watching: Narrow | null = null;
export const announceFor = (narrow: Narrow | null) => void (watching = narrow);

let lastAt = 0;
let waiting: { line: string; count: number } | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

/** The text of rendered HTML, without running or loading anything in it. */
export function plainText(html: string): string {
  const text = new DOMParser().parseFromString(html, "text/html").body.textContent ?? "";
  return text.replace(/\s+/g, " ").trim();
}

export function describe(message: Message): string {
  const where = message.type === "stream" ? ` in #${typeof message.display_recipient === "string" ? message.display_recipient : ""} > ${topicLabel(message.subject)}` : " (direct message)";
  const text = plainText(message.content);
  return `${message.sender_full_name}${where}: ${text.length > TEXT_LENGTH ? `${text.slice(0, TEXT_LENGTH)}…` : text}`;
}

function say() {
  timer = null;
  if (!waiting) return;
  announcement.value = waiting.count > 1 ? `${waiting.count} new messages. Last: ${waiting.line}` : waiting.line;
  waiting = null;
  lastAt = Date.now();
}

onNewMessage((message, fromMe) => {
  if (fromMe || !watching || mutedUsers.value.has(message.sender_id)) return;
  if (narrowContains(watching, message, me.value.userId, muting) !== true) return;
  waiting = { line: describe(message), count: (waiting?.count ?? 0) + 1 };
  const wait = lastAt + EVERY_MS - Date.now();
  if (wait <= 0) say();
  else timer ??= setTimeout(say, wait);
});
