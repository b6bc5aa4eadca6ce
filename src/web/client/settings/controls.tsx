import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { Checkbox, Field, Loaded, Select, toast, toastError, useLoad } from "../ui/components";
import { loadUserSettings, saveSetting, userSettings, type UserSettings } from "./userSettings";

/** Setting controls that save as they change, as Zulip's settings do: no Save button to forget. */

/** The setting's value as shown: the one being saved, at once (back to the stored one if saving fails). */
function useSave(name: string) {
  const [saving, setSaving] = useState<{ value: unknown } | null>(null);
  async function save(value: unknown) {
    setSaving({ value });
    try {
      await saveSetting(name, value);
      toast("Saved.");
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(null);
    }
  }
  return { busy: saving !== null, value: saving ? saving.value : userSettings.value?.[name], save };
}

export function SettingToggle(props: { name: string; label: ComponentChildren; hint?: ComponentChildren }) {
  const { busy, value, save } = useSave(props.name);
  return <Checkbox id={`setting-${props.name}`} label={props.label} hint={props.hint} checked={value === true} disabled={busy} onChecked={save} />;
}

interface SelectProps<T> {
  name: string;
  label: string;
  options: Array<{ value: T; label: string }>;
  hint?: ComponentChildren;
  /** For a setting whose values are not the options' own (a boolean shown as two choices). */
  toValue?: (choice: T) => unknown;
  fromValue?: (value: unknown) => T;
}

export function SettingSelect<T extends string | number>(props: SelectProps<T>) {
  const { busy, value, save } = useSave(props.name);
  const id = `setting-${props.name}`;
  return (
    <Field label={props.label} id={id} hint={props.hint}>
      <Select id={id} value={props.fromValue ? props.fromValue(value) : (value as T)} options={props.options} disabled={busy} onValue={(choice) => save(props.toValue ? props.toValue(choice) : choice)} />
    </Field>
  );
}

/** A titled group of settings. */
export function SettingGroup(props: { title: string; description?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="card">
      <div class="card-head">
        <div>
          <h2>{props.title}</h2>
          {props.description && <p class="hint">{props.description}</p>}
        </div>
      </div>
      <div class="card-body">{props.children}</div>
    </section>
  );
}

/** Shows the groups once the settings are loaded. */
export function WithSettings(props: { children: (settings: UserSettings) => ComponentChildren }) {
  const state = useLoad(loadUserSettings);
  // Read the signal, so the groups redraw as settings are saved.
  const current = userSettings.value;
  return <Loaded state={{ ...state, data: current ?? state.data }}>{props.children}</Loaded>;
}
