import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import { DEFAULT_PORTS, SECURITY_OPTIONS, sendTestMail, TestMailResult, type Security, type SmtpAnswer, type TestOutcome } from "../../ui/smtp";
import { Button, Field, Loaded, Notice, Select, TextInput, errorText, toast, useLoad } from "../../ui/components";

/**
 * The SMTP relay invitations and password resets go out through (GET/PUT/DELETE /server/smtp,
 * POST /server/smtp/test). Settings from the server's environment win and are shown read-only.
 */

export function SmtpCard() {
  const settings = useLoad(() => api<SmtpAnswer>("GET", "/server/smtp"));
  const [generation, setGeneration] = useState(0);
  const reload = () => {
    setGeneration((value) => value + 1);
    settings.reload();
  };
  return (
    <section class="card section" aria-labelledby="smtp-title">
      <div class="card-head">
        <h2 id="smtp-title">Mail server</h2>
      </div>
      <div class="card-body">
        {/* A fresh form for what was loaded: after a save, the stored values, with the password field empty. */}
        <Loaded state={settings}>{(answer) => <SmtpForm key={`${generation}:${JSON.stringify(answer)}`} answer={answer} onChanged={reload} />}</Loaded>
      </div>
    </section>
  );
}

function SourceNote({ answer }: { answer: SmtpAnswer }) {
  if (answer.source === "environment") {
    return (
      <Notice>
        Set by the server's environment (<code>PARLEY_SMTP_*</code>), which wins over anything set here. Change it there and restart Parley, or unset it to set the mail server here.
      </Notice>
    );
  }
  if (answer.source === "none") return <Notice kind="warn">No mail server is set up: invitations and password resets wait in the outbox until one is.</Notice>;
  return <Notice kind="ok">Invitations and password resets go out through this server.</Notice>;
}

function SmtpForm({ answer, onChanged }: { answer: SmtpAnswer; onChanged: () => void }) {
  const saved = answer.smtp;
  const locked = answer.source === "environment";
  const [form, setForm] = useState({
    host: saved?.host ?? "",
    port: String(saved?.port ?? DEFAULT_PORTS.starttls),
    security: saved?.security ?? ("starttls" as Security),
    user: saved?.user ?? "",
    password: "",
    from: saved?.from ?? "",
  });
  const [to, setTo] = useState("");
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<"save" | "remove" | "test" | null>(null);
  const set = (changes: Partial<typeof form>) => setForm((current) => ({ ...current, ...changes }));

  // The port follows the security while it is still that security's usual one.
  const chooseSecurity = (security: Security) => set({ security, port: form.port === String(DEFAULT_PORTS[form.security]) ? String(DEFAULT_PORTS[security]) : form.port });

  const fields = () => ({ host: form.host.trim(), port: form.port.trim(), security: form.security, user: form.user.trim(), password: form.password || undefined, from: form.from.trim() });

  async function run(what: "save" | "remove", action: () => Promise<unknown>, done: string) {
    setBusy(what);
    setFailure(null);
    try {
      await action();
      toast(done);
      onChanged();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(null);
    }
  }

  async function sendTest() {
    setBusy("test");
    setOutcome(null);
    // The form's settings are tried as they stand, saved or not; the environment's when they win.
    const params = { ...(locked || form.host.trim() === "" ? {} : fields()), to: to.trim() || undefined };
    setOutcome(await sendTestMail(params));
    setBusy(null);
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!locked) void run("save", () => api("PUT", "/server/smtp", fields()), "The mail server settings were saved.");
      }}
    >
      <SourceNote answer={answer} />
      {failure && <Notice kind="error">{failure}</Notice>}
      <div class="form-grid">
        <Field label="Mail server" id="smtp-host" hint={locked ? undefined : "Such as smtp.example.com."}>
          <TextInput id="smtp-host" value={form.host} onValue={(value) => set({ host: value })} maxLength={300} autocomplete="off" disabled={locked} />
        </Field>
        <Field label="Port" id="smtp-port">
          <TextInput id="smtp-port" inputMode="numeric" value={form.port} onValue={(value) => set({ port: value })} maxLength={5} autocomplete="off" disabled={locked} />
        </Field>
      </div>
      <Field label="Security" id="smtp-security">
        <Select id="smtp-security" value={form.security} options={SECURITY_OPTIONS} onValue={chooseSecurity} disabled={locked} />
      </Field>
      <div class="form-grid">
        <Field label="User name" id="smtp-user" hint={locked ? undefined : "Leave empty if the server needs no sign-in."}>
          <TextInput id="smtp-user" value={form.user} onValue={(value) => set({ user: value })} maxLength={254} autocomplete="off" disabled={locked} />
        </Field>
        {!locked && (
          <Field label="Password" id="smtp-password" hint={saved?.password_set ? "Saved; leave empty to keep it." : undefined}>
            <TextInput id="smtp-password" type="password" value={form.password} onValue={(value) => set({ password: value })} maxLength={1024} autocomplete="new-password" />
          </Field>
        )}
      </div>
      <Field label="Sender" id="smtp-from" hint={locked ? undefined : "The From of every e-mail: an address the mail server may send as, with a name if you like, such as Parley <noreply@chat.example.com>."}>
        <TextInput id="smtp-from" value={form.from} onValue={(value) => set({ from: value })} maxLength={400} autocomplete="off" disabled={locked} />
      </Field>
      {!locked && (
        <div class="row">
          <Button variant="primary" type="submit" busy={busy === "save"} disabled={busy !== null}>
            Save
          </Button>
          {answer.source === "database" && (
            <Button
              variant="danger"
              busy={busy === "remove"}
              disabled={busy !== null}
              onClick={() => confirm("Remove the mail server settings? E-mails will wait in the outbox until a mail server is set up again.") && run("remove", () => api("DELETE", "/server/smtp"), "The mail server settings were removed.")}
            >
              Remove
            </Button>
          )}
        </div>
      )}
      <h3 class="subhead">Test</h3>
      <div class="inline-form">
        <Field label="Send a test e-mail to" id="smtp-test-to">
          <TextInput id="smtp-test-to" type="email" value={to} onValue={setTo} maxLength={254} autocomplete="off" placeholder="Your own address" />
        </Field>
        <Button busy={busy === "test"} disabled={busy !== null} onClick={sendTest}>
          Send a test e-mail
        </Button>
      </div>
      <p class="hint">Leave the address empty to send it to yourself. {locked ? "It goes out through the environment's settings." : "It goes out through the settings above, before they are saved."}</p>
      <TestMailResult outcome={outcome} />
    </form>
  );
}
