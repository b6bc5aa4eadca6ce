import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import { Badge, Button, Field, Loaded, Notice, PageHead, Select, TextArea, TextInput, errorText, toast, useLoad } from "../../ui/components";
import { type GroupSettingChoices, type GroupSettingValue, GroupSettingPicker, loadGroupSettingChoices } from "../shared/groupSettingPicker";
import { ALL_CHANNELS, CHANNEL_PERMISSIONS, type Channel, type GroupSettingName, PRIVACY_OPTIONS, WEB_PUBLIC_OPTION, type Privacy, allowedSystemGroups, privacyChanges, privacyOf } from "./types";

/** One channel's name, description, privacy and permission settings (PATCH /streams/{id}). */

async function loadChannel(channelId: number) {
  // The list, not GET /streams/{id}: only the list says whether the channel is a default one.
  const [channels, choices, subscribers] = await Promise.all([
    api<{ streams: Channel[] }>("GET", "/streams", ALL_CHANNELS),
    loadGroupSettingChoices(),
    api<{ subscribers: number[] }>("GET", `/streams/${channelId}/members`).catch(() => ({ subscribers: null })),
  ]);
  const channel = channels.streams.find((item) => item.stream_id === channelId);
  if (!channel) throw new Error("There is no such channel, or it is hidden from you.");
  return { channel, choices, subscriberCount: subscribers.subscribers?.length ?? null };
}

export function EditChannel(props: { channelId: number }) {
  const state = useLoad(() => loadChannel(props.channelId), [props.channelId]);
  return (
    <>
      <p class="small">
        <a href="/admin/channels">← All channels</a>
      </p>
      <Loaded state={state}>{({ channel, choices, subscriberCount }) => <ChannelForm key={JSON.stringify(channel)} channel={channel} choices={choices} subscriberCount={subscriberCount} onSaved={state.reload} />}</Loaded>
    </>
  );
}

const sameValue = (a: GroupSettingValue, b: GroupSettingValue) => JSON.stringify(a) === JSON.stringify(b);

function ChannelForm(props: { channel: Channel; choices: GroupSettingChoices; subscriberCount: number | null; onSaved: () => void }) {
  const { channel } = props;
  const [name, setName] = useState(channel.name);
  const [description, setDescription] = useState(channel.description);
  const [privacy, setPrivacy] = useState<Privacy>(privacyOf(channel));
  const [settings, setSettings] = useState<Record<GroupSettingName, GroupSettingValue>>(() => Object.fromEntries(CHANNEL_PERMISSIONS.map(({ name }) => [name, channel[name]])) as Record<GroupSettingName, GroupSettingValue>);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const privacyOptions = channel.is_web_public ? [WEB_PUBLIC_OPTION, ...PRIVACY_OPTIONS] : PRIVACY_OPTIONS;

  /** Only what changed: the server refuses a "new" name equal to the old one, and checks each setting's old value. */
  function changes(): Record<string, unknown> {
    const params: Record<string, unknown> = {};
    if (name.trim() !== channel.name) params.new_name = name.trim();
    if (description !== channel.description) params.description = description;
    Object.assign(params, privacyChanges(channel, privacy));
    for (const { name: setting } of CHANNEL_PERMISSIONS) {
      if (!sameValue(settings[setting], channel[setting])) params[setting] = { new: settings[setting], old: channel[setting] };
    }
    return params;
  }

  async function save(event: Event) {
    event.preventDefault();
    const params = changes();
    if (Object.keys(params).length === 0) return toast("Nothing has changed.");
    setBusy(true);
    setError(null);
    try {
      await api("PATCH", `/streams/${channel.stream_id}`, params);
      toast(`#${name.trim()} was saved.`);
      props.onSaved();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={save}>
      <PageHead
        title={`#${channel.name}`}
        description={
          <span class="row">
            {channel.is_archived && <Badge kind="danger">archived</Badge>}
            {channel.is_default && <Badge kind="accent">default</Badge>}
            {props.subscriberCount !== null && <span>{props.subscriberCount === 1 ? "1 subscriber" : `${props.subscriberCount} subscribers`}</span>}
          </span>
        }
      />
      {error && <Notice kind="error">{error}</Notice>}
      <div class="card">
        <div class="card-body">
          <Field label="Channel name" id="edit-channel-name">
            <TextInput id="edit-channel-name" value={name} required maxLength={60} onValue={setName} />
          </Field>
          <Field label="Description" id="edit-channel-description" hint="Markdown; shown under the channel's name.">
            <TextArea id="edit-channel-description" value={description} onValue={setDescription} />
          </Field>
          <Field label="Who can access it" id="edit-channel-privacy" hint={privacyOptions.find((option) => option.value === privacy)?.hint}>
            <Select id="edit-channel-privacy" value={privacy} options={privacyOptions} onValue={setPrivacy} />
          </Field>
        </div>
      </div>
      <section class="section">
        <h2>Permissions</h2>
        <div class="card">
          <div class="card-body form-grid">
            {CHANNEL_PERMISSIONS.map((permission) => (
              <GroupSettingPicker
                key={permission.name}
                id={`edit-${permission.name}`}
                label={permission.label}
                hint={permission.hint}
                value={settings[permission.name]}
                onChange={(value) => setSettings((current) => ({ ...current, [permission.name]: value }))}
                allowedSystemGroups={allowedSystemGroups(permission.everyone)}
                groups={props.choices.groups}
                users={props.choices.users}
              />
            ))}
          </div>
          <div class="card-foot">
            <a class="btn" href="/admin/channels">
              Cancel
            </a>
            <Button variant="primary" type="submit" busy={busy}>
              Save changes
            </Button>
          </div>
        </div>
      </section>
    </form>
  );
}
