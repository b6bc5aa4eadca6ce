import { useEffect, useRef, useState } from "preact/hooks";
import { allEmoji, emojiReady, loadEmoji, searchEmoji, type EmojiChoice } from "./data";
import { EmojiGlyph } from "./glyph";

/**
 * The emoji picker: a search field and a grid of buttons. The caller positions the
 * `.emoji-picker` box and decides what a pick means (a reaction, a status, text in the
 * composer). Loaded by dynamic import() only, so it is its own chunk.
 */

/** The grid's width in buttons; fixed, so arrow keys know what "up" is. Matches emoji.css. */
const COLUMNS = 8;
/** Buttons drawn at most; searching narrows the rest. */
const SHOWN = 300;

export function EmojiPicker(props: { onPick(choice: EmojiChoice): void; onClose(): void }) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [failed, setFailed] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLDivElement>(null);

  useEffect(() => {
    loadEmoji().catch(() => setFailed(true));
    // On touch screens the keyboard would cover the grid; there the box takes the focus (for Escape).
    const touch = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
    (touch ? box.current : search.current)?.focus();
  }, []);

  // Click (or touch) outside closes, as popovers do. Capture: a handler below may stop propagation.
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  useEffect(() => {
    const outside = (event: PointerEvent) => {
      if (box.current && !box.current.contains(event.target as Node)) onClose.current();
    };
    document.addEventListener("pointerdown", outside, true);
    return () => document.removeEventListener("pointerdown", outside, true);
  }, []);

  const ready = emojiReady.value;
  const everything = query.trim() ? null : allEmoji();
  const choices = everything ? everything.slice(0, SHOWN) : searchEmoji(query, SHOWN);
  const hidden = everything ? everything.length - choices.length : 0;

  const focusButton = (index: number) => {
    const target = Math.max(0, Math.min(choices.length - 1, index));
    setActive(target);
    (grid.current?.children[target] as HTMLElement | undefined)?.focus();
  };

  const onSearchKey = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" && choices.length > 0) {
      event.preventDefault();
      focusButton(active);
    } else if (event.key === "Enter" && choices.length > 0) {
      // Type a name, press Enter: the best match.
      event.preventDefault();
      props.onPick(choices[Math.min(active, choices.length - 1)]);
    }
  };

  const onGridKey = (event: KeyboardEvent) => {
    const step: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -COLUMNS, ArrowDown: COLUMNS };
    if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      focusButton(event.key === "Home" ? 0 : choices.length - 1);
      return;
    }
    const move = step[event.key];
    if (move === undefined) return;
    event.preventDefault();
    if (event.key === "ArrowUp" && active < COLUMNS) search.current?.focus();
    else focusButton(active + move);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    // Escape closes the picker only, not whatever the chat does with Escape.
    event.preventDefault();
    event.stopPropagation();
    props.onClose();
  };

  return (
    <div class="emoji-picker" ref={box} tabIndex={-1} onKeyDown={onKeyDown} role="dialog" aria-label="Emoji">
      <input
        ref={search}
        class="input emoji-search"
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        autocomplete="off"
        spellcheck={false}
        value={query}
        onInput={(event) => {
          setQuery(event.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onSearchKey}
      />
      <div class="emoji-grid" ref={grid} role="group" aria-label={query.trim() ? "Matching emoji" : "Emoji"} onKeyDown={onGridKey}>
        {choices.map((choice, index) => (
          <button
            key={`${choice.type}:${choice.code}`}
            type="button"
            class="emoji-choice"
            aria-label={choice.name}
            title={`:${choice.name}:`}
            tabIndex={index === active ? 0 : -1}
            onFocus={() => setActive(index)}
            onClick={() => props.onPick(choice)}
          >
            <EmojiGlyph name={choice.name} code={choice.code} type={choice.type} />
          </button>
        ))}
      </div>
      <p class="emoji-note" role="status">
        {!ready && !failed ? "Loading…" : failed && !ready ? "Could not load all emoji." : choices.length === 0 ? "No emoji match." : hidden > 0 ? `Search to find ${hidden} more.` : ""}
      </p>
    </div>
  );
}

export default EmojiPicker;
