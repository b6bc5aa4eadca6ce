import { batch, effect, signal, untracked } from "@preact/signals";
import { dmPeople, messageDmPeople, narrowKey, type Narrow } from "../../model/narrow";
import type { Message } from "../../model/types";
import type { Destination } from "../../state/echo";
import { currentNarrow } from "../../state/place";
import { me, realm } from "../../state/store";
import { deleteDraft, draftKey, loadDraft, saveDraft } from "./drafts";
import { typingOut } from "./typingOut";

/**
 * What the compose box is aimed at and what it holds, shared with the rest of the chat: the
 * message view's "Reply" and the `r`, `c` and `x` keys call the functions below. The target
 * follows the narrow (a topic, a channel, a DM conversation, or nothing chosen yet in the feed
 * and other views) until something aims it elsewhere. Whenever it moves to another
 * conversation, the text in the box is kept as that conversation's draft and the new one's
 * draft comes back, unless the person is writing and only changed where it goes (typed a topic,
 * picked a channel or people), in which case the text goes along.
 */

export type ComposeTarget = { type: "stream"; channelId?: number; topic: string } | { type: "private"; userIds: number[] };

export const composeTarget = signal<ComposeTarget | null>(null);
/** Bumped to ask the compose box to take the focus. */
export const composeFocus = signal(0);
/** Which part the focus request wants: the message box, or the first field still to fill in. */
export const focusWanted = signal<"message" | "first-empty">("first-empty");
/** The text in the box. */
export const composeText = signal("");

const SAVE_DELAY_MS = 300;

/** Where a narrow's messages go by default: its topic, its channel (topic to write), its people, or to be chosen. */
export function targetForNarrow(narrow: Narrow): ComposeTarget {
  if (narrow.kind === "channel") return { type: "stream", channelId: narrow.channelId, topic: narrow.topic ?? "" };
  if (narrow.kind === "dm") return { type: "private", userIds: narrow.userIds };
  return { type: "stream", topic: "" };
}

/** The topic as the server will store it: trimmed, the empty topic's display name meaning "". */
export function normalTopic(topic: string): string {
  const trimmed = topic.trim();
  return trimmed === realm.value.emptyTopicName ? "" : trimmed;
}

/** Where a message would go, or null while the channel or the people are still to be chosen. */
export function destinationOf(target: ComposeTarget | null): Destination | null {
  if (!target) return null;
  if (target.type === "private") return target.userIds.length ? { type: "private", userIds: target.userIds } : null;
  if (target.channelId === undefined) return null;
  return { type: "stream", channelId: target.channelId, topic: normalTopic(target.topic) };
}

/** The conversation a destination is, for the lists that show the sent message. */
export function conversationOf(destination: Destination): Narrow {
  if (destination.type === "stream") return { kind: "channel", channelId: destination.channelId, topic: destination.topic };
  return { kind: "dm", userIds: dmPeople(destination.userIds, me.value.userId) };
}

const keyOf = (target: ComposeTarget | null) => {
  const destination = destinationOf(target);
  return destination ? draftKey(destination, me.value.userId) : null;
};

let saveTimer: ReturnType<typeof setTimeout> | undefined;

/** Keeps the box's text as the current conversation's draft now (an empty box deletes it). */
export function saveNow() {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  const key = keyOf(composeTarget.value);
  if (key) saveDraft(key, composeText.value, me.value.userId);
}

/** The person typed: the text is saved once they pause. */
export function textChanged(text: string) {
  composeText.value = text;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveNow, SAVE_DELAY_MS);
  const destination = destinationOf(composeTarget.value);
  if (text.trim() === "") typingOut.stop();
  else typingOut.typed(destination);
}

/** After a send: the box empties and the conversation's draft goes. */
export function clearAfterSend() {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  typingOut.stop();
  const key = keyOf(composeTarget.value);
  if (key) deleteDraft(key);
  composeText.value = "";
}

/**
 * Aims the box at `next`. `carry` is for the person changing the destination fields while
 * writing: the text follows. Otherwise the text stays behind as a draft, except text written
 * before any destination was chosen, which has nowhere else to stay.
 */
function aim(next: ComposeTarget, carry: boolean) {
  const oldKey = keyOf(composeTarget.value);
  const newKey = keyOf(next);
  if (oldKey === newKey) {
    composeTarget.value = next;
    return;
  }
  typingOut.stop();
  const keep = (carry || oldKey === null) && composeText.value.trim() !== "";
  if (keep) {
    clearTimeout(saveTimer);
    // The draft moves with the text rather than staying behind under the old conversation.
    if (oldKey) deleteDraft(oldKey);
  } else saveNow();
  batch(() => {
    composeTarget.value = next;
    if (!keep) composeText.value = (newKey === null ? null : loadDraft(newKey, me.value.userId)) ?? "";
  });
  if (keep) saveTimer = setTimeout(saveNow, SAVE_DELAY_MS);
}

/** The person edited the destination fields (topic, channel picker, people). */
export const editDestination = (next: ComposeTarget) => aim(next, true);

/**
 * The person switched between a channel message and a direct message: the text follows, and
 * the first field still to fill takes the focus (the button pressed is gone from the page).
 */
export function switchDestination(next: ComposeTarget) {
  aim(next, true);
  requestFocus("first-empty");
}

function requestFocus(part: "message" | "first-empty") {
  focusWanted.value = part;
  composeFocus.value++;
}

/** Aims at a message's conversation (its topic, or its DM people) and puts the focus in the message box. */
export function replyTo(message: Message) {
  const target: ComposeTarget =
    message.type === "stream" && message.stream_id !== undefined
      ? { type: "stream", channelId: message.stream_id, topic: message.subject }
      : { type: "private", userIds: messageDmPeople(message, me.value.userId) };
  aim(target, false);
  requestFocus("message");
}

/** Aims at `target` (by default where the current view's messages go) and takes the focus. */
export function openCompose(target?: ComposeTarget) {
  aim(target ?? targetForNarrow(currentNarrow.value), false);
  requestFocus("first-empty");
}

/** A new direct message: to the people of the DM conversation shown, or to people still to choose. */
export function openDirectCompose() {
  const narrow = currentNarrow.value;
  aim({ type: "private", userIds: narrow.kind === "dm" ? narrow.userIds : [] }, false);
  requestFocus("first-empty");
}

// The target follows the narrow; a narrow that only moved its anchor (`/near/…`) is the same one.
let followedNarrow = "";
effect(() => {
  const narrow = currentNarrow.value;
  const key = narrowKey(narrow);
  if (key === followedNarrow) return;
  followedNarrow = key;
  untracked(() => aim(targetForNarrow(narrow), false));
});
