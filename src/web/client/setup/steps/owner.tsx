import { useState } from "preact/hooks";
import { Button, Field, Notice, TextInput, errorText } from "../../ui/components";
import { StepCard } from "../frame";
import { setupCall } from "../request";
import type { StepProps } from "../state";

interface Problems {
  name?: string;
  email?: string;
  password?: string;
  confirm?: string;
}

function problemsOf(fullName: string, email: string, password: string, confirm: string): Problems {
  const problems: Problems = {};
  if (fullName.trim() === "") problems.name = "Enter your name.";
  if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) problems.email = "Enter an e-mail address, such as you@example.com.";
  if (password.length < 8) problems.password = "At least 8 characters.";
  else if (confirm !== password) problems.confirm = "The two passwords differ.";
  return problems;
}

/** Step 3: the owner's account. Creating it creates the organization and signs the owner in. */
export function OwnerStep({ state, update, next, back }: StepProps) {
  const [fullName, setFullName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [problems, setProblems] = useState<Problems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create() {
    const found = problemsOf(fullName, email, password, confirm);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setFailure(null);
    try {
      const created = await setupCall<{ email: string }>("/setup", { setup_code: state.code, org_name: state.orgName.trim(), org_url: state.orgUrl, full_name: fullName.trim(), email: email.trim(), password });
      update({ owner: { email: created.email, fullName: fullName.trim() } });
      next();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <StepCard
      title="Your account"
      intro={
        <p>
          You will be the owner of <strong>{state.orgName.trim()}</strong>: you can do everything, including naming other owners and administrators.
        </p>
      }
      onSubmit={create}
      back={
        <Button onClick={back} disabled={busy}>
          Back
        </Button>
      }
      actions={
        <Button variant="primary" type="submit" busy={busy}>
          Create organization
        </Button>
      }
    >
      {failure && <Notice kind="error">{failure}</Notice>}
      <Field label="Your name" id="owner-name" error={problems.name}>
        <TextInput id="owner-name" value={fullName} onValue={setFullName} maxLength={100} autocomplete="name" />
      </Field>
      <Field label="E-mail address" id="owner-email" error={problems.email} hint="You sign in with it.">
        <TextInput id="owner-email" type="email" inputMode="email" value={email} onValue={setEmail} maxLength={254} autocomplete="email" />
      </Field>
      <div class="form-grid">
        <Field label="Password" id="owner-password" error={problems.password} hint="At least 8 characters.">
          <TextInput id="owner-password" type="password" value={password} onValue={setPassword} maxLength={1024} autocomplete="new-password" />
        </Field>
        <Field label="Confirm password" id="owner-confirm" error={problems.confirm}>
          <TextInput id="owner-confirm" type="password" value={confirm} onValue={setConfirm} maxLength={1024} autocomplete="new-password" />
        </Field>
      </div>
    </StepCard>
  );
}
