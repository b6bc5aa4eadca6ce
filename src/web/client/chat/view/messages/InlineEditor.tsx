import { useSignal } from "@preact/signals";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { api } from "../../../ui/api";
import { Button, errorText } from "../../../ui/components";
import type { Message } from "../../model/types";
import { stopEditing } from "./editing";

/**
 * A message edited in place: its Markdown fetched as written (GET /messages/{id} with
 * apply_markdown=false), saved with PATCH; the update_message event then brings the new
 * rendering to every client. Enter saves, Shift+Enter starts a line, Escape cancels.
 * The server's refusal (the time limit passed, say) shows here, under the box.
 */
export function InlineEditor({ message }: { message: Message }) {
  const original = useSignal<string | null>(null);
  const text = useSignal("");
  const error = useSignal<string | null>(null);
  const saving = useSignal(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  // Where the focus was when editing began (the compose box, for ↑), to give it back after.
  const returnTo = useRef(document.activeElement);

  useEffect(() => {
    const id = message.id;
    return () => {
      const active = document.activeElement;
      // The person moved on to something else meanwhile: leave the focus there.
      if (active && active !== document.body && !wrapper.current?.contains(active)) return;
      requestAnimationFrame(() => {
        const back = returnTo.current;
        const target = back instanceof HTMLElement && back.isConnected && back !== document.body ? back : document.querySelector<HTMLElement>(`article[data-message-id="${id}"] .msg-more`);
        target?.focus();
      });
    };
  }, []);

  useEffect(() => {
    let current = true;
    api<{ raw_content: string }>("GET", `/messages/${message.id}`, { apply_markdown: false }).then(
      (reply) => {
        if (!current) return;
        original.value = reply.raw_content;
        text.value = reply.raw_content;
      },
      (failure: unknown) => current && (error.value = errorText(failure)),
    );
    return () => void (current = false);
  }, [message.id]);

  const loaded = original.value !== null;
  useLayoutEffect(() => {
    const area = box.current;
    if (!area || !loaded) return;
    area.focus();
    area.setSelectionRange(area.value.length, area.value.length);
  }, [loaded]);

  // Grows with its text up to the stylesheet's max-height.
  useLayoutEffect(() => {
    const area = box.current;
    if (!area) return;
    area.style.height = "auto";
    area.style.height = `${area.scrollHeight + 2}px`;
  }, [text.value, loaded]);

  async function save() {
    if (saving.value || original.value === null) return;
    const content = text.value;
    if (content.trim() === "") {
      error.value = "A message cannot be empty. To remove it, delete it instead.";
      return;
    }
    if (content === original.value) return stopEditing();
    saving.value = true;
    error.value = null;
    try {
      await api("PATCH", `/messages/${message.id}`, { content });
      stopEditing();
    } catch (failure) {
      error.value = errorText(failure);
    } finally {
      saving.value = false;
    }
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void save();
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      stopEditing();
    }
  }

  return (
    <div class="msg-editor" ref={wrapper}>
      {loaded ? (
        <textarea ref={box} class="input msg-editor-text" aria-label="Edit message" value={text.value} onInput={(event) => (text.value = event.currentTarget.value)} onKeyDown={onKeyDown} disabled={saving.value} />
      ) : (
        !error.value && <p class="muted small">Loading the message…</p>
      )}
      {error.value && (
        <p class="field-error" role="alert">
          {error.value}
        </p>
      )}
      <div class="msg-editor-actions">
        <Button small onClick={stopEditing}>
          Cancel
        </Button>
        <Button small variant="primary" busy={saving.value} disabled={!loaded} onClick={save}>
          Save
        </Button>
        <span class="muted small msg-editor-hint">Enter to save, Shift+Enter for a new line, Esc to cancel</span>
      </div>
    </div>
  );
}
