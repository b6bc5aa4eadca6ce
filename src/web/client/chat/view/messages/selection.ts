import { signal } from "@preact/signals";
import type { Message } from "../../model/types";
import { messages } from "../../state/messages";
import { currentList } from "../../state/place";

/**
 * The selected message, which `j`/`k` move and `r`/`e` act on (shortcuts.tsx binds the keys).
 * Without a selection the first move starts from what is on screen, not from either end.
 */

export const selectedId = signal<number | null>(null);

const shownIds = () => currentList.value?.ids.value ?? [];

/** Ids of the rows at least partly inside the message list's visible area, top to bottom. */
function onScreenIds(): number[] {
  const scroller = document.querySelector<HTMLElement>('[data-testid="message-list"]');
  if (!scroller) return [];
  const view = scroller.getBoundingClientRect();
  const ids: number[] = [];
  for (const row of scroller.querySelectorAll<HTMLElement>("article[data-message-id]")) {
    const box = row.getBoundingClientRect();
    if (box.bottom > view.top && box.top < view.bottom) ids.push(Number(row.dataset.messageId));
  }
  return ids;
}

function move(step: 1 | -1) {
  const ids = shownIds();
  if (ids.length === 0) return;
  const at = selectedId.value === null ? -1 : ids.indexOf(selectedId.value);
  if (at === -1) {
    const visible = onScreenIds();
    selectedId.value = (step === 1 ? visible[0] : visible.at(-1)) ?? ids[ids.length - 1];
    return;
  }
  selectedId.value = ids[Math.min(Math.max(at + step, 0), ids.length - 1)];
}

export const selectNext = () => move(1);
export const selectPrevious = () => move(-1);

/** The selected message, when it is in the list shown. */
export function selectedMessage(): Message | undefined {
  const id = selectedId.value;
  return id !== null && shownIds().includes(id) ? messages.get(id) : undefined;
}
