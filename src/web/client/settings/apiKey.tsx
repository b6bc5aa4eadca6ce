import { useState } from "preact/hooks";
import { api } from "../ui/api";
import type { SectionProps } from "../ui/app";
import { Button, CopyField, Dialog, Field, Notice, PageHead, TextInput, downloadText, errorText, toast } from "../ui/components";

/**
 * The person's API key, for bots, scripts and other Zulip clients. As in Zulip, it is shown
 * only after the password is entered again (POST /fetch_api_key), so a browser left signed in
 * does not hand it out.
 */

/** The configuration file Zulip's tools read (python-zulip-api, zulip-terminal): the key, whose it is, and where. */
export const zuliprc = (email: string, key: string, site: string) => `[api]\nemail=${email}\nkey=${key}\nsite=${site}\n`;

export default function ApiKeySection({ me }: SectionProps) {
  const [key, setKey] = useState<string | null>(null);
  return (
    <>
      <PageHead title="API key" description="Programs that act as you (bots, scripts, the terminal and mobile apps) sign in with your e-mail address and this key. Keep it secret, like a password." />
      {/* The address this browser reached the server at: the one a program beside it can use too. */}
      {key === null ? <Reveal email={me.email} onKey={setKey} /> : <Shown email={me.email} site={location.origin} apiKey={key} onKey={setKey} />}
    </>
  );
}

function Reveal(props: { email: string; onKey: (key: string) => void }) {
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const { api_key } = await api<{ api_key: string }>("POST", "/fetch_api_key", { username: props.email, password });
      props.onKey(api_key);
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="card narrow" onSubmit={submit}>
      <div class="card-body">
        {problem && <Notice kind="error">{problem}</Notice>}
        <p>Enter your password to see your API key.</p>
        <input type="email" autocomplete="username" value={props.email} hidden readOnly />
        <Field label="Your password" id="api-key-password">
          <TextInput id="api-key-password" type="password" value={password} onValue={setPassword} autocomplete="current-password" required />
        </Field>
      </div>
      <div class="card-foot">
        <Button type="submit" variant="primary" busy={busy}>
          Show my API key
        </Button>
      </div>
    </form>
  );
}

function Shown(props: { email: string; site: string; apiKey: string; onKey: (key: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const file = zuliprc(props.email, props.apiKey, props.site);

  async function regenerate() {
    setBusy(true);
    setProblem(null);
    try {
      const { api_key } = await api<{ api_key: string }>("POST", "/users/me/api_key/regenerate");
      props.onKey(api_key);
      setConfirming(false);
      toast("You have a new API key; the old one no longer works.");
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <section class="card">
        <div class="card-body">
          <Field label="API key" id="api-key" hint={`Together with ${props.email}.`}>
            <CopyField id="api-key" value={props.apiKey} label="API key" />
          </Field>
          <div class="field">
            <span class="label">zuliprc</span>
            <pre class="zuliprc">{file}</pre>
            <p class="hint">Zulip's tools read this file from ~/.zuliprc, or from the path given with --config-file.</p>
          </div>
        </div>
        <div class="card-foot">
          <Button onClick={() => downloadText("zuliprc", file)}>Download zuliprc</Button>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Generate a new key
          </Button>
        </div>
      </section>
      <Dialog
        title="Generate a new API key?"
        open={confirming}
        onClose={() => setConfirming(false)}
        footer={
          <>
            <Button onClick={() => setConfirming(false)}>Cancel</Button>
            <Button variant="danger" busy={busy} onClick={regenerate}>
              Generate a new key
            </Button>
          </>
        }
      >
        {problem && <Notice kind="error">{problem}</Notice>}
        <p>Every program using your current key stops working at once, until it is given the new one.</p>
      </Dialog>
    </>
  );
}
