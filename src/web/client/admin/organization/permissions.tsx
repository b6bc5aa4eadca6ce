import { useEffect, useState } from "preact/hooks";
import { api } from "../../ui/api";
import type { SectionProps } from "../../ui/app";
import { Checkbox, errorText, Field, Loaded, Select, TextInput, toast, useLoad } from "../../ui/components";
import type { Me } from "../../ui/me";
import { GroupSettingPicker, loadGroupSettingChoices, systemGroupsAllowedBy, type GroupSettingChoices, type GroupSettingValue } from "../shared/groupSettingPicker";
import { SaveBar } from "../shared/saveBar";
import { loadRealmState, realmGroupSetting, sameGroupSetting, type RealmState } from "../shared/realmState";
import { GROUP_SETTING_SECTIONS, TIME_LIMITS } from "./permissionFields";
import { TimeLimitSelect } from "./timeLimit";
import { UPLOAD_SETTINGS, UploadsCard } from "./uploads";

/** The organization's rules: message editing, who may do what, joining, uploads. Saved together. */

interface Channel {
  stream_id: number;
  name: string;
}

async function loadPermissions() {
  const [realm, choices, channels] = await Promise.all([loadRealmState(["realm"]), loadGroupSettingChoices(), api<{ streams: Channel[] }>("GET", "/streams", { include_all: true })]);
  return { realm, choices, channels: channels.streams.sort((a, b) => a.name.localeCompare(b.name)) };
}

export function PermissionsTab({ me }: SectionProps) {
  const state = useLoad(loadPermissions);
  return <Loaded state={state}>{(data) => <PermissionsForm me={me} {...data} reload={state.reload} />}</Loaded>;
}

type Values = Record<string, unknown>;

const SCALARS = [
  "allow_message_editing",
  ...TIME_LIMITS.map((limit) => limit.name),
  "message_edit_history_visibility_policy",
  "mandatory_topics",
  "waiting_period_threshold",
  "enable_spectator_access",
  "new_stream_announcements_stream_id",
  ...UPLOAD_SETTINGS,
];
const GROUP_SETTINGS = GROUP_SETTING_SECTIONS.flatMap((section) => section.fields.map((field) => field.name));
const OWNER_ONLY = new Set(["waiting_period_threshold", ...UPLOAD_SETTINGS, ...GROUP_SETTING_SECTIONS.flatMap((section) => section.fields.filter((field) => field.ownerOnly).map((field) => field.name))]);

function valuesOf(realm: RealmState): Values {
  const values: Values = {};
  for (const name of SCALARS) values[name] = name === "max_file_upload_size_mib" ? realm.max_file_upload_size_mib : realm[`realm_${name}`];
  for (const name of GROUP_SETTINGS) values[name] = realmGroupSetting(realm, name);
  return values;
}

/** A changed value as PATCH /realm takes it. */
function parameter(name: string, value: unknown, saved: unknown): unknown {
  if (GROUP_SETTINGS.includes(name)) return { new: value, old: saved };
  if (value === null && (name.endsWith("_limit_seconds") || name.startsWith("upload_quota"))) return "unlimited";
  return value;
}

function PermissionsForm(props: { me: Me; realm: RealmState; choices: GroupSettingChoices; channels: Channel[]; reload: () => void }) {
  const saved = valuesOf(props.realm);
  const [values, setValues] = useState<Values>(saved);
  // After a save the reloaded settings are the new starting point.
  useEffect(() => setValues(valuesOf(props.realm)), [props.realm]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: string) => (value: unknown) => setValues({ ...values, [name]: value });
  const changed = Object.keys(values).filter((name) => (GROUP_SETTINGS.includes(name) ? !sameGroupSetting(values[name] as GroupSettingValue, saved[name] as GroupSettingValue) : values[name] !== saved[name]));
  const ownerOnly = (name: string) => OWNER_ONLY.has(name) && !props.me.is_owner;
  const ownerHint = "Only owners can change this.";
  // A refusal names its setting; show it under that field as well as above the Save button.
  const errorFor = (name: string) => (error?.includes(`'${name}'`) ? error : null);

  async function save(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api("PATCH", "/realm", Object.fromEntries(changed.map((name) => [name, parameter(name, values[name], saved[name])])));
      toast("Settings saved.");
      props.reload();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={save}>
      <section class="card" aria-labelledby="perm-messages">
        <div class="card-head">
          <h2 id="perm-messages">Editing and moving messages</h2>
        </div>
        <div class="card-body">
          <Checkbox id="allow_message_editing" label="People may edit their own messages" checked={values.allow_message_editing as boolean} onChecked={set("allow_message_editing")} />
          <div class="form-grid">
            {TIME_LIMITS.map((limit) => (
              <Field key={limit.name} label={limit.label} id={limit.name} hint={limit.hint} error={errorFor(limit.name)}>
                <TimeLimitSelect id={limit.name} value={values[limit.name] as number | null} onValue={set(limit.name)} disabled={limit.name === "message_content_edit_limit_seconds" && !values.allow_message_editing} />
              </Field>
            ))}
            <Field label="Edit history" id="message_edit_history_visibility_policy" hint="Who may see how a message was edited and moved.">
              <Select
                id="message_edit_history_visibility_policy"
                value={values.message_edit_history_visibility_policy as string}
                onValue={set("message_edit_history_visibility_policy")}
                options={[
                  { value: "all", label: "Everyone sees every edit" },
                  { value: "moves", label: "Everyone sees moves only" },
                  { value: "none", label: "Nobody" },
                ]}
              />
            </Field>
          </div>
          <Checkbox id="mandatory_topics" label="Channel messages need a topic" hint="Without it, messages may go to the general chat topic." checked={values.mandatory_topics as boolean} onChecked={set("mandatory_topics")} />
        </div>
      </section>

      {GROUP_SETTING_SECTIONS.map((section) => (
        <section key={section.title} class="card" aria-label={section.title}>
          <div class="card-head">
            <h2>{section.title}</h2>
          </div>
          <div class="card-body form-grid">
            {section.fields.map((field) => {
              const rule = props.realm.server_supported_permission_settings.realm[field.name];
              return (
                <div key={field.name}>
                  <GroupSettingPicker
                    id={field.name}
                    label={field.label}
                    hint={errorFor(field.name) ? <span class="field-error">{errorFor(field.name)}</span> : ownerOnly(field.name) ? ownerHint : field.hint}
                    value={values[field.name] as GroupSettingValue}
                    onChange={set(field.name)}
                    groups={props.choices.groups}
                    users={props.choices.users}
                    allowedSystemGroups={systemGroupsAllowedBy(rule)}
                    allowSpecific={!rule?.require_system_group}
                    disabled={ownerOnly(field.name)}
                  />
                </div>
              );
            })}
          </div>
        </section>
      ))}

      <section class="card" aria-labelledby="perm-joining">
        <div class="card-head">
          <h2 id="perm-joining">Joining and reading</h2>
        </div>
        <div class="card-body">
          <div class="form-grid">
            <Field label="Days before new members become full members" id="waiting_period_threshold" hint={ownerOnly("waiting_period_threshold") ? ownerHint : "Settings can be limited to full members. 0: everyone is one at once."} error={errorFor("waiting_period_threshold")}>
              <TextInput
                id="waiting_period_threshold"
                type="number"
                inputMode="numeric"
                min={0}
                value={String(values.waiting_period_threshold)}
                onValue={(text) => set("waiting_period_threshold")(text === "" ? 0 : Number(text))}
                disabled={ownerOnly("waiting_period_threshold")}
              />
            </Field>
            <Field label="Announce new channels in" id="new_stream_announcements_stream_id">
              <Select
                id="new_stream_announcements_stream_id"
                value={values.new_stream_announcements_stream_id as number}
                onValue={set("new_stream_announcements_stream_id")}
                options={[{ value: -1, label: "Nowhere" }, ...props.channels.map((channel) => ({ value: channel.stream_id, label: `#${channel.name}` }))]}
              />
            </Field>
          </div>
          <Checkbox
            id="enable_spectator_access"
            label="Anyone on the internet may read web-public channels"
            hint="Without signing in. Other channels stay private."
            checked={values.enable_spectator_access as boolean}
            onChecked={set("enable_spectator_access")}
          />
        </div>
      </section>

      <UploadsCard values={values} saved={saved} set={set} ownerOnly={ownerOnly} errorFor={errorFor} />

      <SaveBar changed={changed.length} busy={busy} error={error} saveLabel="Save changes" onUndo={() => {
          setValues(saved);
          setError(null);
        }} />
    </form>
  );
}
