import type { UnusableReason } from "../../actions/invitesAccept";
import { html, type SafeHtml } from "../html";
import { errorBox, field, layout } from "../layout";

/** Signing up with an invitation link: the invitee picks a name and a password. */

export interface JoinValues {
  email?: string;
  full_name?: string;
}

export interface JoinContext {
  key: string;
  realmName: string;
  /** Fixed by an e-mail invitation; null for a reusable link, where the invitee enters it. */
  email: string | null;
  inviterName: string;
}

export function joinPage(context: JoinContext, values: JoinValues = {}, error?: string): SafeHtml {
  const emailField = context.email
    ? html`<p>You are signing up as <strong>${context.email}</strong>.</p>`
    : field({ name: "email", label: "Your e-mail address", type: "email", value: values.email, maxLength: 254, autocomplete: "email", hint: "You will sign in with it." });
  return layout(
    `Join ${context.realmName}`,
    html`<h1>Join ${context.realmName}</h1>
<p>${context.inviterName ? html`${context.inviterName} invited you. ` : ""}Choose your name and a password to create your account.</p>
${errorBox(error)}
<form method="post" action="/join/${context.key}/">
${emailField}
${field({ name: "full_name", label: "Your name", value: values.full_name, maxLength: 100, autocomplete: "name", autofocus: true })}
${field({ name: "password", label: "Password", type: "password", maxLength: 1024, minLength: 8, autocomplete: "new-password", hint: "At least 8 characters." })}
<button class="button" type="submit">Create my account</button>
</form>`,
  );
}

const EXPLANATIONS: Record<UnusableReason, { title: string; text: string }> = {
  expired: { title: "This invitation has expired", text: "The link was only valid for a limited time. Ask the person who invited you for a new invitation." },
  revoked: { title: "This invitation was revoked", text: "The link no longer works. Ask the organization\u2019s administrators if you still need an account." },
  used: { title: "This invitation was already used", text: "An account was already created with this link. Sign in with it instead." },
  unknown: { title: "This invitation link is not valid", text: "Check that you copied the whole link from the invitation, or ask for a new one." },
};

/** Why the link does not work, said plainly; every case offers the way to sign in. */
export function unusableInvitationPage(realmName: string, reason: UnusableReason): SafeHtml {
  const { title, text } = EXPLANATIONS[reason];
  return layout(`${title} · ${realmName}`, html`<h1>${title}</h1>
<p>${text}</p>
<a class="secondary" href="/">Sign in to ${realmName}</a>`);
}
