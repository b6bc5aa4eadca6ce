import { useState } from "preact/hooks";
import { api, ApiFailure } from "../../ui/api";
import { Button, CopyField, Field, Notice, TextArea, errorText } from "../../ui/components";
import { StepCard } from "../frame";
import type { StepProps } from "../state";

/** Step 6 (optional): invite the first people by e-mail, or hand them links when mail is not set up. */

type Sent = { addresses: string[]; links: Record<string, string> | null };

/** The reasons of INVITATION_FAILED, one line per address. */
function failureText(error: unknown): string {
  if (error instanceof ApiFailure && Array.isArray(error.body.errors) && error.body.errors.length > 0) {
    const lines = (error.body.errors as Array<[string, string]>).map(([address, reason]) => `${address}: ${reason}`);
    return `${error.message} ${lines.join(" ")}`;
  }
  return errorText(error);
}

export function InvitationsStep({ state, update, next, back }: StepProps) {
  const [emails, setEmails] = useState("");
  const [sent, setSent] = useState<Sent | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function invite(): Promise<boolean> {
    const addresses = emails
      .split(/[,\n]/)
      .map((address) => address.trim())
      .filter(Boolean);
    if (addresses.length === 0) return true;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await api<{ invite_links?: Record<string, string> }>("POST", "/invites", { invitee_emails: addresses.join(","), stream_ids: [], include_realm_default_subscriptions: true });
      setSent({ addresses, links: answer.invite_links ?? null });
      update({ invited: [...state.invited, ...addresses] });
      setEmails("");
      return true;
    } catch (error) {
      setProblem(failureText(error));
      return false;
    } finally {
      setBusy(false);
    }
  }

  return (
    <StepCard
      title="Invite people"
      intro={<p>Each person gets a link to choose their name and password. They join the channels everyone joins.</p>}
      onSubmit={async () => {
        // A list typed in but not sent yet goes out with Finish; links stay to copy.
        if (emails.trim() === "") return next();
        await invite();
      }}
      back={
        <Button onClick={back} disabled={busy}>
          Back
        </Button>
      }
      actions={
        <>
          {emails.trim() !== "" && (
            <Button variant="ghost" onClick={next} disabled={busy}>
              Skip
            </Button>
          )}
          <Button variant="primary" type="submit" busy={busy}>
            {emails.trim() === "" ? "Finish" : "Send invitations"}
          </Button>
        </>
      }
    >
      {problem && <Notice kind="error">{problem}</Notice>}
      {sent && sent.links === null && <Notice kind="ok">Invitations were e-mailed to {sent.addresses.join(", ")}.</Notice>}
      {sent?.links && (
        <div class="stack invite-links">
          <Notice kind="warn">No mail server is set up, so nothing was e-mailed. Send each person their link yourself:</Notice>
          {Object.entries(sent.links).map(([address, link]) => (
            <Field label={address} id={`link-${address}`}>
              <CopyField id={`link-${address}`} value={link} label={`Invitation link for ${address}`} />
            </Field>
          ))}
        </div>
      )}
      <Field label="E-mail addresses" id="invite-emails" hint="One per line, or separated by commas.">
        <TextArea id="invite-emails" value={emails} onValue={setEmails} />
      </Field>
    </StepCard>
  );
}
