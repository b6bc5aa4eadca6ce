import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import { DEFAULT_PORTS, SECURITY_OPTIONS, sendTestMail, TestMailResult, type Security, type SmtpAnswer, type TestOutcome } from "../../ui/smtp";
import { Button, Field, Loaded, Notice, Select, TextInput, errorText, useLoad } from "../../ui/components";
import { StepCard } from "../frame";
import type { StepProps } from "../state";

/** Step 4 (optional): the SMTP relay that invitations and password resets go out through. */

export function MailStep(props: StepProps) {
  const settings = useLoad(() => api<SmtpAnswer>("GET", "/server/smtp"));
  return <Loaded state={settings}>{(answer) => (answer.source === "environment" ? <FromEnvironment answer={answer} {...props} /> : <MailForm answer={answer} {...props} />)}</Loaded>;
}

/** The server's environment names the relay: shown, tested, not changed here. */
function FromEnvironment({ answer, update, next }: StepProps & { answer: SmtpAnswer }) {
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  const smtp = answer.smtp!;
  return (
    <StepCard
      title="E-mail"
      intro={<p>Parley sends invitations and password resets by e-mail.</p>}
      onSubmit={() => {
        update({ mail: "environment" });
        next();
      }}
      actions={
        <Button variant="primary" type="submit">
          Continue
        </Button>
      }
    >
      <Notice>
        The mail server is set by the environment (<code>PARLEY_SMTP_HOST</code>): <strong>{smtp.host}:{smtp.port}</strong> ({smtp.security}), sending as {smtp.from}. Change it there.
      </Notice>
      <TestMailResult outcome={outcome} />
      <Button
        busy={busy}
        onClick={async () => {
          setBusy(true);
          setOutcome(await sendTestMail({}));
          setBusy(false);
        }}
      >
        Send me a test e-mail
      </Button>
    </StepCard>
  );
}

function MailForm({ answer, state, update, next }: StepProps & { answer: SmtpAnswer }) {
  const saved = answer.smtp;
  const host = new URL(state.orgUrl).hostname;
  const [form, setForm] = useState({
    host: saved?.host ?? "",
    port: String(saved?.port ?? DEFAULT_PORTS.starttls),
    security: saved?.security ?? ("starttls" as Security),
    user: saved?.user ?? "",
    password: "",
    from: saved?.from ?? `Parley <noreply@${host}>`,
  });
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<"test" | "save" | null>(null);
  const set = (changes: Partial<typeof form>) => setForm((current) => ({ ...current, ...changes }));

  // The port follows the security while it is still that security's usual one.
  function chooseSecurity(security: Security) {
    set({ security, port: form.port === String(DEFAULT_PORTS[form.security]) ? String(DEFAULT_PORTS[security]) : form.port });
  }

  const params = () => ({ host: form.host.trim(), port: form.port.trim(), security: form.security, user: form.user.trim(), password: form.password || undefined, from: form.from.trim() });

  async function test() {
    setBusy("test");
    setFailure(null);
    setOutcome(await sendTestMail(params()));
    setBusy(null);
  }

  async function save() {
    setBusy("save");
    setFailure(null);
    try {
      await api("PUT", "/server/smtp", params());
      update({ mail: "saved" });
      next();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <StepCard
      title="E-mail"
      intro={<p>Parley sends invitations and password resets by e-mail, through your mail provider’s SMTP server. You can skip this and set it later in the admin console; until then, you pass invitation links on yourself.</p>}
      onSubmit={save}
      actions={
        <>
          <Button
            variant="ghost"
            disabled={busy !== null}
            onClick={() => {
              update({ mail: "skipped" });
              next();
            }}
          >
            Skip
          </Button>
          <Button variant="primary" type="submit" busy={busy === "save"} disabled={busy === "test"}>
            Save and continue
          </Button>
        </>
      }
    >
      {failure && <Notice kind="error">{failure}</Notice>}
      <div class="form-grid">
        <Field label="Mail server" id="smtp-host" hint="Such as smtp.example.com.">
          <TextInput id="smtp-host" value={form.host} onValue={(value) => set({ host: value })} maxLength={300} autocomplete="off" />
        </Field>
        <Field label="Port" id="smtp-port">
          <TextInput id="smtp-port" inputMode="numeric" value={form.port} onValue={(value) => set({ port: value })} maxLength={5} autocomplete="off" />
        </Field>
      </div>
      <Field label="Security" id="smtp-security">
        <Select id="smtp-security" value={form.security} options={SECURITY_OPTIONS} onValue={chooseSecurity} />
      </Field>
      <div class="form-grid">
        <Field label="User name" id="smtp-user" hint="Leave empty if the server needs no sign-in.">
          <TextInput id="smtp-user" value={form.user} onValue={(value) => set({ user: value })} maxLength={254} autocomplete="off" />
        </Field>
        <Field label="Password" id="smtp-password" hint={saved?.password_set ? "Saved; leave empty to keep it." : undefined}>
          <TextInput id="smtp-password" type="password" value={form.password} onValue={(value) => set({ password: value })} maxLength={1024} autocomplete="new-password" />
        </Field>
      </div>
      <Field label="Sender" id="smtp-from" hint="The From of every e-mail: an address your mail server may send as, with a name if you like.">
        <TextInput id="smtp-from" value={form.from} onValue={(value) => set({ from: value })} maxLength={400} autocomplete="off" />
      </Field>
      <TestMailResult outcome={outcome} />
      <Button busy={busy === "test"} disabled={busy === "save"} onClick={test}>
        Send me a test e-mail
      </Button>
      <p class="hint test-hint">It goes to {state.owner?.email ?? "you"}, through the settings above, before they are saved.</p>
    </StepCard>
  );
}
