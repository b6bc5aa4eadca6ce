import { signal } from "@preact/signals";

/** The message being edited in place, if any (↑ in an empty compose box and `e` start it). */
export const editingId = signal<number | null>(null);

export function startEditing(messageId: number) {
  editingId.value = messageId;
}

export function stopEditing() {
  editingId.value = null;
}
