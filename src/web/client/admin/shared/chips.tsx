import type { ComponentChildren } from "preact";
import { Select } from "../../ui/components";

/** Removable chips (people, groups) and the select that adds one more: the pickers' parts. */

export interface Chip {
  key: string;
  label: string;
  onRemove: () => void;
}

export function ChipList(props: { label: string; chips: Chip[]; empty?: ComponentChildren; disabled?: boolean }) {
  return (
    <ul class="chips" aria-label={props.label}>
      {props.chips.length === 0 && <li class="muted small">{props.empty ?? "Nobody yet."}</li>}
      {props.chips.map((chip) => (
        <li class="chip" key={chip.key}>
          <span>{chip.label}</span>
          <button type="button" class="chip-remove" aria-label={`Remove ${chip.label}`} disabled={props.disabled} onClick={chip.onRemove}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A select whose first option is a prompt; choosing anything else hands it over and resets. */
export function AddSelect(props: { id: string; label: string; prompt: string; options: Array<{ value: string; label: string }>; onAdd: (value: string) => void; disabled?: boolean }) {
  return (
    <Select
      id={props.id}
      aria-label={props.label}
      value=""
      options={[{ value: "", label: props.prompt }, ...props.options]}
      onValue={(value) => value !== "" && props.onAdd(value)}
      disabled={props.disabled || props.options.length === 0}
    />
  );
}
