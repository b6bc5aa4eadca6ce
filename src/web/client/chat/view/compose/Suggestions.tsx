import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Avatar } from "../../../ui/components";
import { Icon } from "../../../ui/icons";
import { EmojiGlyph } from "../../emoji/glyph";
import type { Choice } from "./suggest";

/**
 * A list of choices under the person's control from the field they type in: the field keeps
 * the focus and points at the highlighted option with aria-activedescendant, as the ARIA
 * combobox pattern does, so a screen reader reads each option as it is reached.
 */

export interface ListState {
  /** The highlighted option, -1 for none (Enter then does what it does without a list). */
  active: number;
  setActive: (index: number) => void;
}

/**
 * The highlighted option, back at `initial` whenever the choices change. `initial` is -1 where
 * an open list must not take Enter or Tab from the field unless the person moved into it.
 */
export function useListState(choices: Choice[], initial = 0): ListState {
  const identity = choices.map((choice) => choice.key).join("\n");
  const [state, setState] = useState({ identity, active: initial });
  const active = state.identity === identity ? Math.min(state.active, choices.length - 1) : Math.min(initial, choices.length - 1);
  return { active, setActive: (index) => setState({ identity, active: index }) };
}

/**
 * The keys an open list takes from its field: ↑/↓ move, Enter/Tab pick, Escape closes. True
 * when the key was the list's (and is then kept from the field and from the page's shortcuts).
 */
export function listKey(event: KeyboardEvent, count: number, list: ListState, pick: (index: number) => void, close: () => void): boolean {
  if (count === 0 || event.isComposing) return false;
  switch (event.key) {
    case "ArrowDown":
      list.setActive(list.active + 1 >= count ? 0 : list.active + 1);
      break;
    case "ArrowUp":
      list.setActive(list.active <= 0 ? count - 1 : list.active - 1);
      break;
    case "Enter":
    case "Tab":
      // Shift+Enter still adds a line, Shift+Tab still moves back; nothing highlighted picks nothing.
      if (event.shiftKey || event.ctrlKey || event.metaKey || list.active < 0) return false;
      pick(list.active);
      break;
    case "Escape":
      close();
      break;
    default:
      return false;
  }
  event.preventDefault();
  event.stopPropagation();
  return true;
}

export const optionId = (listId: string, index: number) => `${listId}-${index}`;

/** The attributes that tie a field to its list. */
export function comboProps(listId: string, open: boolean, active: number): Pick<JSX.HTMLAttributes<HTMLElement>, "aria-autocomplete" | "aria-controls" | "aria-activedescendant"> {
  return {
    "aria-autocomplete": "list",
    "aria-controls": open ? listId : undefined,
    "aria-activedescendant": open && active >= 0 ? optionId(listId, active) : undefined,
  };
}

export function SuggestionList(props: { id: string; label: string; choices: Choice[]; list: ListState; onPick: (index: number) => void; class?: string }) {
  const { id, choices, list } = props;
  useEffect(() => {
    if (list.active >= 0) document.getElementById(optionId(id, list.active))?.scrollIntoView({ block: "nearest" });
  }, [id, list.active]);
  return (
    <ul class={`compose-suggestions ${props.class ?? ""}`} role="listbox" id={id} aria-label={props.label}>
      {choices.map((choice, index) => (
        <li
          key={choice.key}
          id={optionId(id, index)}
          role="option"
          aria-selected={index === list.active}
          class="compose-suggestion"
          // The field keeps the focus (and the caret) while the pointer picks.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => props.onPick(index)}
          onMouseMove={() => index !== list.active && list.setActive(index)}
        >
          <ChoiceMark choice={choice} />
          <span class="compose-suggestion-label">{choice.label}</span>
          {choice.detail && <span class="compose-suggestion-detail">{choice.detail}</span>}
        </li>
      ))}
    </ul>
  );
}

function ChoiceMark({ choice }: { choice: Choice }) {
  switch (choice.kind) {
    case "person":
      return <Avatar name={choice.label} url={choice.avatarUrl} />;
    case "emoji":
      return choice.emoji ? <EmojiGlyph name={choice.emoji.name} code={choice.emoji.code} type={choice.emoji.type} /> : null;
    case "channel":
      return <span class="compose-suggestion-icon">{choice.privateChannel ? <Icon name="lock" size={15} /> : <Icon name="hash" size={15} />}</span>;
    case "wildcard":
      return (
        <span class="compose-suggestion-icon">
          <Icon name="people" size={15} />
        </span>
      );
    case "topic":
      return (
        <span class="compose-suggestion-icon">
          <Icon name="chat" size={15} />
        </span>
      );
  }
}
