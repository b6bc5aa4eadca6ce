import { useState } from "preact/hooks";
import { api } from "../ui/api";
import type { SectionProps } from "../ui/app";
import { Button, Field, Notice, PageHead, TextInput, errorText } from "../ui/components";

/** A new password, given the current one; every other browser signed in as the person is signed out. */

const MIN_LENGTH = 8;

export default function PasswordSection({ me }: SectionProps) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setDone(false);
    if (next.length < MIN_LENGTH) return setProblem(`The new password needs at least ${MIN_LENGTH} characters.`);
    if (next !== confirmation) return setProblem("The two new passwords differ.");
    setBusy(true);
    setProblem(null);
    try {
      await api("PATCH", "/settings", { old_password: current, new_password: next });
      setCurrent("");
      setNext("");
      setConfirmation("");
      setDone(true);
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageHead title="Password" description="Changing your password signs you out of every other browser. Programs that use your API key keep working." />
      <form class="card narrow" onSubmit={submit}>
        <div class="card-body">
          {problem && <Notice kind="error">{problem}</Notice>}
          {done && <Notice kind="ok">Your password was changed, and your other browsers were signed out.</Notice>}
          {/* For password managers: whose password this is. */}
          <input type="email" autocomplete="username" value={me.email} hidden readOnly />
          <Field label="Current password" id="password-current">
            <TextInput id="password-current" type="password" value={current} onValue={setCurrent} autocomplete="current-password" required />
          </Field>
          <Field label="New password" id="password-new" hint={`At least ${MIN_LENGTH} characters.`}>
            <TextInput id="password-new" type="password" value={next} onValue={setNext} autocomplete="new-password" required />
          </Field>
          <Field label="New password again" id="password-confirm">
            <TextInput id="password-confirm" type="password" value={confirmation} onValue={setConfirmation} autocomplete="new-password" required />
          </Field>
        </div>
        <div class="card-foot">
          <Button type="submit" variant="primary" busy={busy}>
            Change password
          </Button>
        </div>
      </form>
    </>
  );
}
