import { useState } from "preact/hooks";
import { Button, Field, TextInput, errorText } from "../../ui/components";
import { StepCard } from "../frame";
import { setupCall } from "../request";
import type { StepProps } from "../state";

/** Step 1: the one-time code from the server's log proves the person runs this server. */
export function CodeStep({ state, update, next }: StepProps) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function check() {
    if (state.code.trim() === "") return setError("Enter the setup code from the server’s log.");
    setBusy(true);
    try {
      await setupCall("/setup/code", { setup_code: state.code });
      setError(null);
      next();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <StepCard
      title="Welcome to Parley"
      intro={<p>This server has no organization yet. First, show that it is yours with the one-time setup code.</p>}
      onSubmit={check}
      actions={
        <Button variant="primary" type="submit" busy={busy}>
          Continue
        </Button>
      }
    >
      <div class="notice">
        <p>
          Parley printed the code in its log when it started, on a line like <code>Setup code: ABCD-EFGH-JKLM</code>. Look in:
        </p>
        <ul class="step-list">
          <li>
            the terminal where <code>parley serve</code> runs,
          </li>
          <li>
            <code>journalctl -u parley</code> if it runs as a systemd service,
          </li>
          <li>
            <code>docker logs</code> with the container’s name if it runs in Docker.
          </li>
        </ul>
        <p class="small muted">A restart prints a new code, and the old one stops working.</p>
      </div>
      <Field label="Setup code" id="setup-code" error={error}>
        <TextInput
          id="setup-code"
          value={state.code}
          onValue={(code) => update({ code })}
          autocomplete="off"
          maxLength={64}
          placeholder="XXXX-XXXX-XXXX"
        />
      </Field>
    </StepCard>
  );
}
