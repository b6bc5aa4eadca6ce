import { signal } from "@preact/signals";
import { Dialog } from "../../ui/components";
import type { Narrow } from "../model/narrow";
import { currentNarrow, goTo } from "../state/place";
import { me, muting, sortedSubscriptions } from "../state/store";
import { unreads } from "../state/unreads";
import { openCompose, openDirectCompose, replyTo } from "./compose/state";
import { startEditing } from "./messages/editing";
import { selectedMessage, selectNext, selectPrevious } from "./messages/selection";

/**
 * The keyboard: the common moves without a mouse, Zulip's keys where Zulip has one. Keys act
 * only when no text field has the focus (Escape excepted), so typing is never hijacked.
 */

export const searchFocus = signal(0);
export const showKeys = signal(false);

const KEYS: Array<[string, string]> = [
  ["/ or Ctrl+K", "Search"],
  ["c", "New message in this conversation"],
  ["x", "New direct message"],
  ["r", "Reply to the selected message"],
  ["e", "Edit the selected message (yours)"],
  ["j / k", "Next / previous message"],
  ["n", "Next conversation with unread messages"],
  ["Esc", "Back to the combined feed"],
  ["?", "This list"],
];

const typingInField = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/** The next conversation with unread messages after the current one: channels in sidebar order, then DMs. */
function nextUnreadConversation(current: Narrow): Narrow | undefined {
  const seen = new Set<string>();
  const candidates: Narrow[] = [];
  const order = new Map(sortedSubscriptions.value.map((sub, index) => [sub.stream_id, index]));
  const sorted = [...unreads.value].sort(([a, placeA], [b, placeB]) => (order.get(placeA.channelId ?? -1) ?? 1e9) - (order.get(placeB.channelId ?? -1) ?? 1e9) || a - b);
  for (const [, place] of sorted) {
    const narrow: Narrow | undefined =
      place.dm !== undefined ? { kind: "dm", userIds: place.dm.split(",").map(Number) } : place.channelId !== undefined ? { kind: "channel", channelId: place.channelId, topic: place.topic ?? "" } : undefined;
    if (!narrow || (narrow.kind === "channel" && !muting.isTopicVisibleInFeed(narrow.channelId, narrow.topic ?? ""))) continue;
    const key = JSON.stringify(narrow);
    if (seen.has(key)) continue;
    seen.add(key);
    candidates.push(narrow);
  }
  const here = JSON.stringify(current);
  const index = candidates.findIndex((narrow) => JSON.stringify(narrow) === here);
  return candidates[index + 1] ?? (index === -1 ? candidates[0] : undefined);
}

function onKey(event: KeyboardEvent) {
  if (event.defaultPrevented || event.altKey) return;
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "k") {
    event.preventDefault();
    searchFocus.value++;
    return;
  }
  if (event.ctrlKey || event.metaKey) return;
  if (typingInField(event.target) || document.querySelector("dialog[open]")) return;
  const selected = selectedMessage();
  const actions: Record<string, () => void> = {
    "/": () => searchFocus.value++,
    c: () => openCompose(),
    x: () => openDirectCompose(),
    r: () => selected && replyTo(selected),
    e: () => selected && selected.sender_id === me.value.userId && startEditing(selected.id),
    j: selectNext,
    k: selectPrevious,
    n: () => {
      const next = nextUnreadConversation(currentNarrow.value);
      if (next) goTo(next);
    },
    Escape: () => currentNarrow.value.kind !== "feed" && goTo({ kind: "feed" }),
    "?": () => (showKeys.value = true),
  };
  const action = actions[key];
  if (!action) return;
  event.preventDefault();
  action();
}

export function listenToKeys() {
  addEventListener("keydown", onKey);
}

export function KeysDialog() {
  return (
    <Dialog title="Keyboard shortcuts" open={showKeys.value} onClose={() => (showKeys.value = false)}>
      <dl class="keys">
        {KEYS.map(([keys, what]) => (
          <>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </>
        ))}
      </dl>
    </Dialog>
  );
}
