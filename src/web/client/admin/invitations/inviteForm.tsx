import { useState } from "preact/hooks";
import { ApiFailure, api } from "../../ui/api";
import { Button, CopyField, Field, Notice, TextArea, errorText } from "../../ui/components";
import { InviteOptions, initialOptions, optionParams, type InviteOptionValues } from "./options";
import type { ChannelChoice } from "./types";

/** Creating invitations: by e-mail to named addresses, or a reusable link for anyone. */

type Tab = "email" | "link";

/** What the last submission came to, shown under the form until the next one. */
type Outcome =
  | { kind: "sent"; count: number }
  | { kind: "links"; links: Array<[address: string, url: string]> }
  | { kind: "failed"; message: string; skipped: Array<[address: string, reason: string]>; links: Array<[address: string, url: string]> }
  | { kind: "link"; url: string }
  | { kind: "error"; message: string };

const addressCount = (raw: string) => raw.split(/[,\n]/).filter((part) => part.trim() !== "").length;

export function InviteForm(props: { myRole: number; channels: ChannelChoice[]; mail: boolean | null; onCreated: () => void }) {
  const [tab, setTab] = useState<Tab>("email");
  const [emails, setEmails] = useState("");
  const [emailOptions, setEmailOptions] = useState<InviteOptionValues>(initialOptions);
  const [linkOptions, setLinkOptions] = useState<InviteOptionValues>(initialOptions);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      if (tab === "email") {
        const answer = await api<{ invite_links?: Record<string, string> }>("POST", "/invites", { invitee_emails: emails, ...optionParams(emailOptions) });
        setOutcome(answer.invite_links ? { kind: "links", links: Object.entries(answer.invite_links) } : { kind: "sent", count: addressCount(emails) });
        setEmails("");
      } else {
        const answer = await api<{ invite_link: string }>("POST", "/invites/multiuse", optionParams(linkOptions));
        setOutcome({ kind: "link", url: answer.invite_link });
      }
      props.onCreated();
    } catch (error) {
      if (error instanceof ApiFailure && error.code === "INVITATION_FAILED") {
        const body = error.body as { errors?: Array<[string, string, boolean]>; sent_invitations?: boolean; invite_links?: Record<string, string> };
        setOutcome({ kind: "failed", message: error.message, skipped: (body.errors ?? []).map(([address, reason]) => [address, reason]), links: Object.entries(body.invite_links ?? {}) });
        if (body.sent_invitations) props.onCreated();
      } else setOutcome({ kind: "error", message: errorText(error) });
    } finally {
      setBusy(false);
    }
  }

  const choose = (next: Tab) => {
    setTab(next);
    setOutcome(null);
  };

  return (
    <form class="card" onSubmit={submit} aria-label="New invitation">
      <div class="card-body">
        <div class="tabs" role="tablist">
          <button type="button" role="tab" aria-selected={tab === "email"} onClick={() => choose("email")}>
            Invite by e-mail
          </button>
          <button type="button" role="tab" aria-selected={tab === "link"} onClick={() => choose("link")}>
            Reusable link
          </button>
        </div>
        {tab === "email" ? (
          <>
            <Field
              label="E-mail addresses"
              id="invite-emails"
              hint={props.mail === false ? "This server cannot send e-mail yet: you get a link per address to pass on yourself." : "Separate addresses with commas or new lines. Each gets an e-mail with their own link."}
            >
              <TextArea id="invite-emails" value={emails} onValue={setEmails} />
            </Field>
            <InviteOptions prefix="invite" myRole={props.myRole} channels={props.channels} values={emailOptions} onChange={setEmailOptions} />
          </>
        ) : (
          <>
            <p class="muted">Anyone with the link can create an account until it expires or you revoke it. Share it only where you mean to.</p>
            <InviteOptions prefix="link" myRole={props.myRole} channels={props.channels} values={linkOptions} onChange={setLinkOptions} />
          </>
        )}
        <OutcomeView outcome={outcome} />
      </div>
      <div class="card-foot">
        <Button type="submit" variant="primary" busy={busy}>
          {tab === "email" ? (props.mail === false ? "Create invitation links" : "Send invitations") : "Create link"}
        </Button>
      </div>
    </form>
  );
}

function LinkList(props: { links: Array<[string, string]> }) {
  return (
    <ul class="link-list">
      {props.links.map(([address, url], index) => (
        <li key={address}>
          <label class="label" for={`invite-link-${index}`}>
            {address}
          </label>
          <CopyField id={`invite-link-${index}`} value={url} label={`Invitation link for ${address}`} />
        </li>
      ))}
    </ul>
  );
}

function OutcomeView({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null;
  switch (outcome.kind) {
    case "sent":
      return <Notice kind="ok">{outcome.count === 1 ? "Invitation sent." : `${outcome.count} invitations sent.`} They are listed below until they are used.</Notice>;
    case "links":
      return (
        <div class="stack">
          <Notice kind="warn">No e-mail was sent: this server cannot send mail. Copy each link and send it to that person yourself.</Notice>
          <LinkList links={outcome.links} />
        </div>
      );
    case "failed":
      return (
        <div class="stack">
          <Notice kind="error">
            {outcome.message}
            {outcome.skipped.length > 0 && (
              <ul class="plain-list">
                {outcome.skipped.map(([address, reason]) => (
                  <li key={address}>
                    <strong class="break">{address}</strong>: {reason}
                  </li>
                ))}
              </ul>
            )}
          </Notice>
          {outcome.links.length > 0 && <LinkList links={outcome.links} />}
        </div>
      );
    case "link":
      return (
        <div class="field">
          <label for="new-invite-link">Your reusable link</label>
          <CopyField id="new-invite-link" value={outcome.url} label="Your reusable link" />
          <p class="hint">It stays in the list below, where you can revoke it.</p>
        </div>
      );
    case "error":
      return <Notice kind="error">{outcome.message}</Notice>;
  }
}
