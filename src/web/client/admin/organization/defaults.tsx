import { useEffect, useState } from "preact/hooks";
import { api } from "../../ui/api";
import type { SectionProps } from "../../ui/app";
import { Checkbox, errorText, Field, Loaded, Notice, Select, toast, useLoad } from "../../ui/components";
import { SaveBar } from "../shared/saveBar";
import { loadRealmState } from "../shared/realmState";
import { DEFAULT_SECTIONS } from "./defaultFields";

/** What new accounts start with (PATCH /realm/user_settings_defaults). Existing people keep theirs. */

type Defaults = Record<string, string | number | boolean>;

export function DefaultsTab(_props: SectionProps) {
  const state = useLoad(() => loadRealmState(["realm_user_settings_defaults"]).then((realm) => realm.realm_user_settings_defaults as Defaults));
  return <Loaded state={state}>{(defaults) => <DefaultsForm saved={defaults} reload={state.reload} />}</Loaded>;
}

function DefaultsForm({ saved, reload }: { saved: Defaults; reload: () => void }) {
  const [values, setValues] = useState<Defaults>(saved);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setValues(saved), [saved]);
  const changed = Object.keys(values).filter((name) => values[name] !== saved[name]);
  const set = (name: string) => (value: string | number | boolean) => setValues({ ...values, [name]: value });

  async function save(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api("PATCH", "/realm/user_settings_defaults", Object.fromEntries(changed.map((name) => [name, values[name]])));
      toast("Defaults saved. People who join from now on start with them.");
      reload();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={save}>
      <Notice>These apply to accounts created from now on. Everyone can change their own settings later; existing accounts keep theirs.</Notice>
      {DEFAULT_SECTIONS.map((section) => (
        <section key={section.title} class="card" aria-label={section.title}>
          <div class="card-head">
            <h2>{section.title}</h2>
          </div>
          <div class="card-body">
            <div class="form-grid">
              {section.fields.map((field) =>
                field.kind === "choice" ? (
                  <Field key={field.name} label={field.label} id={`default-${field.name}`}>
                    <Select id={`default-${field.name}`} value={values[field.name] as string | number} options={field.options} onValue={set(field.name)} />
                  </Field>
                ) : null,
              )}
            </div>
            <div class="form-grid">
              {section.fields.map((field) =>
                field.kind === "bool" ? <Checkbox key={field.name} id={`default-${field.name}`} label={field.label} checked={values[field.name] as boolean} onChecked={set(field.name)} /> : null,
              )}
            </div>
          </div>
        </section>
      ))}
      <SaveBar changed={changed.length} busy={busy} error={error} saveLabel="Save defaults" onUndo={() => setValues(saved)} />
    </form>
  );
}
