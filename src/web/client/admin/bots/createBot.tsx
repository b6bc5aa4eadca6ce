import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import { errorText, Field, FormDialog, Select, TextInput } from "../../ui/components";
import { BOT_TYPE_NAMES, BotType } from "./types";

/** POST /bots: a generic, incoming-webhook or outgoing-webhook bot owned by whoever creates it. */

const TYPE_HINTS: Record<number, string> = {
  [BotType.GENERIC]: "Reads and sends messages through the API, like a person would.",
  [BotType.INCOMING_WEBHOOK]: "Can only send messages: for tools that post notifications.",
  [BotType.OUTGOING_WEBHOOK]: "When someone mentions it or sends it a direct message, the server posts the message to your endpoint and sends its reply.",
};

const TYPE_OPTIONS = [BotType.GENERIC, BotType.INCOMING_WEBHOOK, BotType.OUTGOING_WEBHOOK].map((type) => ({ value: type as number, label: BOT_TYPE_NAMES[type]! }));
const FORMAT_OPTIONS = [
  { value: 1, label: "Zulip" },
  { value: 2, label: "Slack-compatible" },
];

/** A username suggested from the name, in the characters short names allow. */
const suggestUsername = (name: string) =>
  name
    .toLowerCase()
    .replace(/\bbot\b/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

export interface CreatedBot {
  user_id: number;
}

export function CreateBotDialog(props: { open: boolean; host: string; onClose: () => void; onCreated: (bot: CreatedBot) => void }) {
  const [name, setName] = useState("");
  const [username, setUsername] = useState("");
  const [usernameEdited, setUsernameEdited] = useState(false);
  const [type, setType] = useState<number>(BotType.GENERIC);
  const [endpoint, setEndpoint] = useState("");
  const [format, setFormat] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function reset() {
    setName("");
    setUsername("");
    setUsernameEdited(false);
    setType(BotType.GENERIC);
    setEndpoint("");
    setFormat(1);
    setError(null);
  }

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const outgoing = type === BotType.OUTGOING_WEBHOOK;
      const created = await api<CreatedBot>("POST", "/bots", {
        full_name: name,
        short_name: username,
        bot_type: type,
        payload_url: outgoing ? JSON.stringify(endpoint.trim()) : undefined,
        interface_type: outgoing ? format : undefined,
      });
      reset();
      props.onCreated(created);
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
    <FormDialog id="create-bot" title="Create a bot" submitLabel="Create bot" open={props.open} busy={busy} error={error} onClose={close} onSubmit={submit}>
      <Field label="Type" id="bot-type" hint={TYPE_HINTS[type]}>
        <Select id="bot-type" value={type} options={TYPE_OPTIONS} onValue={setType} />
      </Field>
      <Field label="Name" id="bot-name" hint="Shown beside its messages.">
        <TextInput
          id="bot-name"
          value={name}
          required
          maxLength={100}
          onValue={(value) => {
            setName(value);
            if (!usernameEdited) setUsername(suggestUsername(value));
          }}
        />
      </Field>
      <Field label="Username" id="bot-username" hint={`Its address will be ${username || "username"}-bot@${props.host}.`}>
        <TextInput
          id="bot-username"
          value={username}
          required
          maxLength={60}
          autocomplete="off"
          onValue={(value) => {
            setUsername(value);
            setUsernameEdited(true);
          }}
        />
      </Field>
      {type === BotType.OUTGOING_WEBHOOK && (
        <div class="form-grid">
          <Field label="Endpoint URL" id="bot-endpoint-url" hint="Where the server posts the messages.">
            <TextInput id="bot-endpoint-url" type="url" value={endpoint} required placeholder="https://" onValue={setEndpoint} />
          </Field>
          <Field label="Format" id="bot-format">
            <Select id="bot-format" value={format} options={FORMAT_OPTIONS} onValue={setFormat} />
          </Field>
        </div>
      )}
    </FormDialog>
  );
}
