import { useState } from "preact/hooks";
import { api, snapshot, type Params } from "../ui/api";
import type { SectionProps } from "../ui/app";
import { Avatar, Badge, Button, Checkbox, Field, Loaded, Notice, PageHead, TextInput, errorText, toast, toastError, useLoad } from "../ui/components";
import type { Me } from "../ui/me";
import { userSettings } from "./userSettings";

/** The person's status: a short text and an emoji shown beside their name, and whether they appear away. */

/** The server's limit, in characters as it counts them (an emoji in the text is one, not two UTF-16 units). */
const MAX_TEXT_LENGTH = 60;

/** register's user_status entry: only what is set. */
interface Status {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

interface CustomEmoji {
  name: string;
  source_url: string;
}

interface StatusState {
  status: Status;
  /** The organization's own emoji, to show one chosen as the status. */
  customEmoji: Record<string, CustomEmoji>;
}

async function loadStatus(userId: number): Promise<StatusState> {
  const state = await snapshot<{ user_status: Record<string, Status>; realm_emoji: Record<string, CustomEmoji> }>({ fetch_event_types: ["user_status", "realm_emoji"] });
  return { status: state.user_status[String(userId)] ?? {}, customEmoji: state.realm_emoji ?? {} };
}

const characters = (text: string) => [...text].length;

/** What people type between colons in a message is the name too: ":palm_tree:" means palm_tree. */
const emojiNameOf = (typed: string) => typed.trim().replace(/^:(.*):$/, "$1");

export default function StatusSection({ me }: SectionProps) {
  const state = useLoad(() => loadStatus(me.user_id), [me.user_id]);
  return (
    <>
      <PageHead title="Status" description="A short note beside your name, for everyone in the organization to see." />
      <Loaded state={state}>{(loaded) => <StatusCards me={me} initial={loaded} />}</Loaded>
    </>
  );
}

function StatusCards({ me, initial }: { me: Me; initial: StatusState }) {
  const [current, setCurrent] = useState(initial);
  return (
    <div>
      <StatusCard me={me} current={current} onChanged={setCurrent} />
      <AwayCard away={current.status.away === true} onChanged={(away) => setCurrent({ ...current, status: { ...current.status, away } })} />
    </div>
  );
}

function StatusCard({ me, current, onChanged }: { me: Me; current: StatusState; onChanged: (state: StatusState) => void }) {
  const { status } = current;
  const [text, setText] = useState(status.status_text ?? "");
  const [emoji, setEmoji] = useState(status.emoji_name ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<"save" | "clear" | null>(null);
  const tooLong = characters(text.trim()) > MAX_TEXT_LENGTH;
  const emojiChanged = emojiNameOf(emoji) !== (status.emoji_name ?? "");
  const changed = text.trim() !== (status.status_text ?? "") || emojiChanged;
  const hasStatus = Boolean(status.status_text || status.emoji_name);

  async function send(params: Params, action: "save" | "clear", done: string) {
    setBusy(action);
    setProblem(null);
    try {
      await api("POST", "/users/me/status", params);
      // Read back what the server stored: it looked up the emoji's code from its name.
      const saved = await loadStatus(me.user_id);
      setText(saved.status.status_text ?? "");
      setEmoji(saved.status.emoji_name ?? "");
      onChanged(saved);
      toast(done);
    } catch (error) {
      // The server's reason (an unknown emoji, a text too long) stays on screen with what was typed.
      setProblem(errorText(error));
    } finally {
      setBusy(null);
    }
  }

  function save(event: Event) {
    event.preventDefault();
    // Only a changed emoji is sent: sending the same name again would look it up again for nothing.
    const params: Params = { status_text: text.trim() };
    if (emojiChanged) params.emoji_name = emojiNameOf(emoji);
    void send(params, "save", "Your status was saved.");
  }

  const clear = () => send({ status_text: "", emoji_name: "" }, "clear", "Your status was cleared.");

  return (
    <form class="card" onSubmit={save}>
      <div class="card-head">
        <div class="me">
          <Avatar name={me.full_name} url={me.avatar_url} />
          <span class="me-text">
            <span>{me.full_name}</span>
            <small>{hasStatus ? <StatusLine current={current} /> : "No status set"}</small>
          </span>
        </div>
        {status.away && <Badge kind="warn">Away</Badge>}
      </div>
      <div class="card-body">
        {problem && <Notice kind="error">{problem}</Notice>}
        <div class="form-grid">
          <Field
            label="Status text"
            id="status-text"
            hint={`${characters(text.trim())} of ${MAX_TEXT_LENGTH} characters.`}
            error={tooLong ? `A status may have at most ${MAX_TEXT_LENGTH} characters.` : null}
          >
            <TextInput id="status-text" value={text} onValue={setText} placeholder="In a meeting, On vacation…" autocomplete="off" />
          </Field>
          <Field label="Emoji" id="status-emoji" hint="An emoji's name, as typed between colons in a message: palm_tree, coffee, house. Empty for none.">
            <TextInput id="status-emoji" value={emoji} onValue={setEmoji} placeholder="palm_tree" autocomplete="off" />
          </Field>
        </div>
      </div>
      <div class="card-foot">
        {hasStatus && (
          <Button class="foot-start" busy={busy === "clear"} disabled={busy !== null} onClick={clear}>
            Clear status
          </Button>
        )}
        <Button type="submit" variant="primary" busy={busy === "save"} disabled={busy !== null || !changed || tooLong}>
          Save status
        </Button>
      </div>
    </form>
  );
}

/** The emoji as the chat shows it (a Unicode character, or the organization's own image), then the text. */
function StatusLine({ current }: { current: StatusState }) {
  const { status, customEmoji } = current;
  return (
    <>
      {status.emoji_name && <StatusEmoji status={status} customEmoji={customEmoji} />} {status.status_text}
    </>
  );
}

function StatusEmoji({ status, customEmoji }: { status: Status; customEmoji: Record<string, CustomEmoji> }) {
  const name = status.emoji_name!;
  if (status.reaction_type === "unicode_emoji" && status.emoji_code) {
    const glyph = String.fromCodePoint(...status.emoji_code.split("-").map((hex) => parseInt(hex, 16)));
    return (
      <span role="img" aria-label={name} title={`:${name}:`}>
        {glyph}
      </span>
    );
  }
  const custom = status.reaction_type === "realm_emoji" ? customEmoji[status.emoji_code ?? ""] : undefined;
  // Our own uploads only: the page may load no image from elsewhere.
  if (custom?.source_url.startsWith("/")) return <img src={custom.source_url} alt={`:${name}:`} width={16} height={16} />;
  return <span>:{name}:</span>;
}

/** `away` is the other face of Privacy's "Show when I am online" (presence_enabled): it saves at once, as settings do. */
function AwayCard({ away, onChanged }: { away: boolean; onChanged: (away: boolean) => void }) {
  const [saving, setSaving] = useState<boolean | null>(null);

  async function change(value: boolean) {
    setSaving(value);
    try {
      await api("POST", "/users/me/status", { away: value });
      onChanged(value);
      // The Privacy section, opened next without a reload, shows the same choice.
      if (userSettings.value) userSettings.value = { ...userSettings.value, presence_enabled: !value };
      toast(value ? "You appear away." : "You no longer appear away.");
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(null);
    }
  }

  return (
    <section class="card">
      <div class="card-head">
        <h2>Availability</h2>
      </div>
      <div class="card-body">
        <Checkbox
          id="status-away"
          label="Appear away"
          hint="Others see you as away even while you are online. This is Privacy's “Show when I am online”, turned off."
          checked={saving ?? away}
          disabled={saving !== null}
          onChecked={change}
        />
      </div>
    </section>
  );
}
