import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { dmPeople, narrowKey } from "../../model/narrow";
import { send } from "../../state/echo";
import { messages } from "../../state/messages";
import { currentList, currentNarrow } from "../../state/place";
import { channelName, me, realm, userName } from "../../state/store";
import { startEditing } from "../messages/editing";
import { applyInsert, findToken } from "./autocomplete";
import { DestinationFields, type FieldRefs } from "./Destination";
import { clearAfterSend, composeFocus, composeTarget, composeText, conversationOf, destinationOf, focusWanted, saveNow, targetForNarrow, textChanged, type ComposeTarget } from "./state";
import { choicesForToken } from "./suggest";
import { comboProps, listKey, SuggestionList, useListState } from "./Suggestions";
import { TypingLine } from "./TypingLine";
import { typingOut } from "./typingOut";

/**
 * The compose box at the foot of the message column: where the message goes, the message
 * itself with `@` `#` `:` autocomplete, and the send button. Sending hands the text to the
 * local echo (state/echo.ts), which shows it at once and settles it with the server.
 *
 * Keys: Enter sends, Shift+Enter starts a new line, Ctrl/Cmd+Enter sends too. The reference's
 * `enter_sends` setting (false by default, meaning Enter adds a line) is deliberately not
 * honoured: the issue asks for Enter to send, as in most chat apps; Shift+Enter covers lines.
 */

const isTouch = () => matchMedia("(pointer: coarse)").matches;

const codePoints = (text: string) => [...text].length;

function placeholderFor(target: ComposeTarget): string {
  if (target.type === "private") {
    if (target.userIds.length === 0) return "Choose people above, then write";
    const people = dmPeople(target.userIds, me.value.userId);
    if (people.length === 1 && people[0] === me.value.userId) return "Write yourself a note";
    return `Message ${people.map((id) => userName(id) ?? "someone").join(", ")}`;
  }
  if (target.channelId === undefined) return "Choose a channel above, then write";
  const channel = `#${channelName(target.channelId) ?? "unknown channel"}`;
  const topic = target.topic.trim();
  if (topic) return `Message ${channel} > ${topic}`;
  return realm.value.mandatoryTopics ? `Message ${channel}` : `Message ${channel} > ${realm.value.emptyTopicName}`;
}

/** Why the message cannot go as it is, and which field to fix, or null when it can. */
function problemWith(target: ComposeTarget, content: string): { text: string; field: keyof FieldRefs | "message" } | null {
  const rules = realm.value;
  if (target.type === "private") return target.userIds.length ? tooLong(content) : { text: "Choose who this message is for.", field: "people" };
  if (target.channelId === undefined) return { text: "Choose a channel for this message.", field: "channel" };
  const topic = target.topic.trim();
  if (rules.mandatoryTopics && (topic === "" || topic === rules.emptyTopicName)) return { text: "This organization requires a topic: give the message one.", field: "topic" };
  if (rules.maxTopicLength && codePoints(topic) > rules.maxTopicLength) {
    return { text: `The topic is ${codePoints(topic)} characters long; the limit is ${rules.maxTopicLength}.`, field: "topic" };
  }
  return tooLong(content);
}

function tooLong(content: string) {
  const limit = realm.value.maxMessageLength;
  const length = codePoints(content);
  return limit && length > limit ? { text: `The message is ${length} characters long; the limit is ${limit}. Shorten it or split it.`, field: "message" as const } : null;
}

/** The newest message of mine in the list shown, for ↑ in an empty box. */
function lastOwnMessageId(): number | undefined {
  const ids = currentList.value?.ids.value ?? [];
  for (let index = ids.length - 1; index >= 0; index--) {
    if (messages.get(ids[index])?.sender_id === me.value.userId) return ids[index];
  }
  return undefined;
}

export function Compose() {
  const narrow = currentNarrow.value;
  const target = composeTarget.value ?? targetForNarrow(narrow);
  const destination = destinationOf(target);
  const text = composeText.value;

  const textRef = useRef<HTMLTextAreaElement>(null);
  const refs: FieldRefs = { channel: useRef<HTMLSelectElement>(null), topic: useRef<HTMLInputElement>(null), people: useRef<HTMLInputElement>(null) };
  const [caret, setCaret] = useState(0);
  const [focused, setFocused] = useState(false);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const caretAfterRender = useRef<number | null>(null);

  const token = focused ? findToken(text.slice(0, caret)) : null;
  const choices = token && token.start !== dismissedAt ? choicesForToken(token, target.type === "stream") : [];
  const list = useListState(choices);
  const open = choices.length > 0;

  const focusMessage = () => textRef.current?.focus();
  const focusField = (field: keyof FieldRefs | "message") => (field === "message" ? focusMessage() : refs[field].current?.focus());

  // Focus on request (Reply, `c`, `x`, `r`): the message box, or the first field still to fill in.
  const focusRequest = composeFocus.value;
  useEffect(() => {
    if (focusRequest === 0) return;
    const current = composeTarget.peek();
    if (focusWanted.peek() === "message" || !current) return focusMessage();
    if (current.type === "private") return focusField(current.userIds.length ? "message" : "people");
    if (current.channelId === undefined) return focusField("channel");
    focusField(current.topic.trim() === "" ? "topic" : "message");
  }, [focusRequest]);

  // Opening a conversation with the pointer (a click in the sidebar) puts the focus here on
  // desktops. Not on touch screens, where it would pop up the keyboard over the messages, and
  // not after a key, so keyboard navigation (j, k, n…) keeps its keys.
  const lastInputWasPointer = useRef(false);
  useEffect(() => {
    const pointer = () => (lastInputWasPointer.current = true);
    const key = () => (lastInputWasPointer.current = false);
    addEventListener("pointerdown", pointer, true);
    addEventListener("keydown", key, true);
    // A reload or a closed tab inside the save delay keeps the last keystrokes.
    addEventListener("pagehide", saveNow);
    return () => {
      removeEventListener("pointerdown", pointer, true);
      removeEventListener("keydown", key, true);
      removeEventListener("pagehide", saveNow);
    };
  }, []);
  const narrowId = narrowKey(narrow);
  useEffect(() => {
    setError(null);
    const conversation = narrow.kind === "dm" || (narrow.kind === "channel" && narrow.topic !== undefined);
    if (!conversation || !lastInputWasPointer.current || isTouch()) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== textRef.current && active.matches("input, textarea, select, [contenteditable]")) return;
    focusMessage();
  }, [narrowId]);

  // The box grows with its text up to its CSS max-height (40% of the viewport), then scrolls.
  useLayoutEffect(() => {
    const box = textRef.current;
    if (!box) return;
    box.style.height = "auto";
    box.style.height = `${box.scrollHeight}px`;
    if (caretAfterRender.current !== null) {
      box.setSelectionRange(caretAfterRender.current, caretAfterRender.current);
      caretAfterRender.current = null;
    }
  }, [text]);

  const trackCaret = (event: Event) => setCaret((event.currentTarget as HTMLTextAreaElement).selectionStart ?? 0);

  function pick(index: number, thenTopic = false) {
    const choice = choices[index];
    if (!token || !choice) return;
    const next = applyInsert(text, caret, token.start, (thenTopic && choice.insertThenTopic) || choice.insert);
    caretAfterRender.current = next.caret;
    setCaret(next.caret);
    textChanged(next.text);
  }

  function submit() {
    const content = text.replace(/^\n+/, "").trimEnd();
    if (content.trim() === "") return;
    const problem = problemWith(target, content);
    if (problem || !destination) {
      setError(problem?.text ?? "Choose where this message goes.");
      if (problem) focusField(problem.field);
      return;
    }
    send(destination, conversationOf(destination), content);
    clearAfterSend();
    setError(null);
    setCaret(0);
    focusMessage();
  }

  function onKeyDown(event: KeyboardEvent) {
    if (open && token) {
      if (event.key === ">" && token.kind === "channel" && list.active >= 0) {
        event.preventDefault();
        return pick(list.active, true);
      }
      if (listKey(event, choices.length, list, pick, () => setDismissedAt(token.start))) return;
    }
    if (event.isComposing) return;
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      submit();
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      textRef.current?.blur();
    } else if (event.key === "ArrowUp" && text === "" && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      const id = lastOwnMessageId();
      if (id !== undefined) {
        event.preventDefault();
        startEditing(id);
      }
    }
  }

  return (
    <section class="compose" aria-label="Compose">
      <TypingLine destination={destination} />
      <div class="compose-box">
        <DestinationFields target={target} narrow={narrow} refs={refs} onDone={focusMessage} />
        <div class="compose-input">
          <textarea
            ref={textRef}
            class="compose-text"
            aria-label="Message"
            placeholder={placeholderFor(target)}
            rows={1}
            enterkeyhint="send"
            {...comboProps("compose-suggestions", open, list.active)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "compose-error" : undefined}
            value={text}
            onInput={(event) => {
              const value = event.currentTarget.value;
              trackCaret(event);
              setError(null);
              if (dismissedAt !== null && !findToken(value.slice(0, event.currentTarget.selectionStart ?? 0))) setDismissedAt(null);
              textChanged(value);
            }}
            onKeyDown={onKeyDown}
            onKeyUp={trackCaret}
            onClick={trackCaret}
            onFocus={(event) => (setFocused(true), trackCaret(event))}
            onBlur={() => {
              setFocused(false);
              typingOut.stop();
              saveNow();
            }}
          />
          <button
            type="button"
            class="compose-send"
            aria-label="Send"
            title="Send (Enter)"
            data-empty={text.trim() === "" || undefined}
            // The message box keeps the focus (and a phone its keyboard) when the button is pressed.
            onMouseDown={(event) => event.preventDefault()}
            onClick={submit}
          >
            <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">
              <path d="M22 2 11 13M22 2l-7 20-4-9-9-4 20-7z" />
            </svg>
          </button>
        </div>
        {open && <SuggestionList id="compose-suggestions" label="Suggestions" choices={choices} list={list} onPick={pick} />}
      </div>
      {error && (
        <p class="compose-error" id="compose-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
