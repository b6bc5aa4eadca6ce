import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import { Checkbox, errorText, Field, FormDialog, Select, TextArea, TextInput } from "../../ui/components";
import { PRIVACY_OPTIONS, type Privacy } from "./types";

/**
 * Creates a channel the way every Zulip client does: by subscribing to a name that does not
 * exist yet (POST /users/me/subscriptions), so its creator is its first subscriber.
 */
export function CreateChannelDialog(props: { open: boolean; existingNames: string[]; onClose: () => void; onCreated: (name: string) => void }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [privacy, setPrivacy] = useState<Privacy>("public");
  const [announce, setAnnounce] = useState(false);
  const [isDefault, setIsDefault] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const isPrivate = privacy !== "public";

  function reset() {
    setName("");
    setDescription("");
    setPrivacy("public");
    setAnnounce(false);
    setIsDefault(false);
    setError(null);
  }

  async function submit(event: Event) {
    event.preventDefault();
    // Subscribing to a name that exists joins that channel instead: not what was asked.
    if (props.existingNames.some((existing) => existing.toLowerCase() === name.trim().toLowerCase())) {
      setError(`A channel named '${name.trim()}' already exists.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api("POST", "/users/me/subscriptions", {
        subscriptions: [{ name: name.trim(), description }],
        invite_only: isPrivate,
        history_public_to_subscribers: privacy !== "private-protected",
        announce,
        is_default_stream: isDefault && !isPrivate,
      });
      reset();
      props.onCreated(name.trim());
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  const close = () => {
    reset();
    props.onClose();
  };

  return (
    <FormDialog id="create-channel" title="Create a channel" submitLabel="Create channel" open={props.open} busy={busy} error={error} onClose={close} onSubmit={submit}>
      <Field label="Channel name" id="channel-name">
        <TextInput id="channel-name" value={name} required maxLength={60} onValue={setName} />
      </Field>
      <Field label="Description" id="channel-description" hint="Markdown; shown under the channel's name.">
        <TextArea id="channel-description" value={description} onValue={setDescription} />
      </Field>
      <Field label="Who can access it" id="channel-privacy" hint={PRIVACY_OPTIONS.find((option) => option.value === privacy)?.hint}>
        <Select id="channel-privacy" value={privacy} options={PRIVACY_OPTIONS} onValue={setPrivacy} />
      </Field>
      <Checkbox id="channel-default" label="Default channel" hint="New members are subscribed to it. Private channels cannot be default." checked={isDefault && !isPrivate} disabled={isPrivate} onChecked={setIsDefault} />
      <Checkbox id="channel-announce" label="Announce it" hint="The notification bot posts about it in the new-channel announcements channel, if there is one." checked={announce} onChecked={setAnnounce} />
    </FormDialog>
  );
}
