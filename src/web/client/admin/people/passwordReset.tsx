import { useEffect, useState } from "preact/hooks";
import { api } from "../../ui/api";
import { Button, CopyField, Dialog, Notice, errorText } from "../../ui/components";
import { formatDateTime } from "../../ui/format";
import { mailAvailable } from "../invitations/mail";
import type { Person } from "./person";

/**
 * Reset a person's password: mail them a link, or create a one-time link to hand over. When
 * the server cannot send mail the e-mail button says so (or, if that cannot be told, the
 * server's refusal does); the one-time link always works.
 */

type Outcome = { kind: "mailed"; expiry: number } | { kind: "link"; url: string; expiry: number } | { kind: "error"; text: string };

/** One dialog for the whole table, outside it, so it inherits nothing from a table cell. */
export function PasswordResetDialog({ person, onClose }: { person: Person | null; onClose: () => void }) {
  const [busy, setBusy] = useState<"mail" | "link" | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [mail, setMail] = useState<boolean | null>(null);

  useEffect(() => {
    setOutcome(null);
    if (person) void mailAvailable().then(setMail);
  }, [person?.user_id]);

  async function reset(target: Person, sendEmail: boolean) {
    setBusy(sendEmail ? "mail" : "link");
    try {
      const answer = await api<{ expiry_date: number; reset_url?: string }>("POST", `/users/${target.user_id}/password_reset`, { send_email: sendEmail });
      setOutcome(answer.reset_url ? { kind: "link", url: answer.reset_url, expiry: answer.expiry_date } : { kind: "mailed", expiry: answer.expiry_date });
    } catch (error) {
      setOutcome({ kind: "error", text: errorText(error) });
    } finally {
      setBusy(null);
    }
  }

  const address = person ? (person.delivery_email ?? person.email) : "";
  return (
    <Dialog
      title={person ? `Reset the password of ${person.full_name}` : "Reset password"}
      open={person !== null}
      onClose={onClose}
      footer={
        person && (
          <>
            <Button variant="ghost" onClick={onClose}>
              {outcome && outcome.kind !== "error" ? "Done" : "Cancel"}
            </Button>
            <Button busy={busy === "link"} disabled={busy !== null} onClick={() => reset(person, false)}>
              Create a one-time link
            </Button>
            <Button variant="primary" busy={busy === "mail"} disabled={busy !== null || mail === false} onClick={() => reset(person, true)}>
              Send a reset e-mail
            </Button>
          </>
        )
      }
    >
      {person && (
        <>
          <p>{person.full_name} chooses a new password with a link that works once, for 24 hours. Their current password keeps working until then; the new one signs them out everywhere.</p>
          <p class="muted small">
            {mail === false
              ? "This server cannot send e-mail, so create a one-time link and hand it over yourself."
              : `The e-mail goes to ${address}. A one-time link is for you to hand over yourself. A newer link replaces older ones.`}
          </p>
          {outcome?.kind === "mailed" && (
            <Notice kind="ok">
              We sent a reset link to {address}. It works until {formatDateTime(outcome.expiry)}.
            </Notice>
          )}
          {outcome?.kind === "error" && <Notice kind="error">{outcome.text}</Notice>}
          {outcome?.kind === "link" && (
            <div class="field">
              <label for={`reset-link-${person.user_id}`}>One-time link</label>
              <CopyField id={`reset-link-${person.user_id}`} value={outcome.url} label="One-time link" />
              <p class="hint">
                Works once, until {formatDateTime(outcome.expiry)}. Give it to {person.full_name} only.
              </p>
            </div>
          )}
        </>
      )}
    </Dialog>
  );
}
