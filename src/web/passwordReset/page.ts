import type { ResetUnusableReason } from "../../actions/passwordResets";
import { html, type SafeHtml } from "../html";
import { errorBox, field, layout } from "../layout";

/** "Forgot your password?" and the page a reset link opens: plain forms, no scripts. */

export function forgotPage(realmName: string, options: { mailAvailable: boolean; email?: string; error?: string }): SafeHtml {
  if (!options.mailAvailable) {
    return layout(
      `Forgot your password? · ${realmName}`,
      html`<h1>Forgot your password?</h1>
<p>This server cannot send e-mail, so it cannot mail you a reset link. Ask an administrator of ${realmName} to create a password reset link for you.</p>
<a class="secondary" href="/login">Back to sign-in</a>`,
    );
  }
  return layout(
    `Forgot your password? · ${realmName}`,
    html`<h1>Forgot your password?</h1>
<p>Enter the e-mail address you sign in to ${realmName} with, and we will send you a link to choose a new password.</p>
${errorBox(options.error)}
<form method="post" action="/password/forgot">
${field({ name: "email", label: "E-mail address", type: "email", value: options.email, maxLength: 254, autocomplete: "username", autofocus: true })}
<button class="button" type="submit">Send me a reset link</button>
</form>
<a class="secondary" href="/login">Back to sign-in</a>`,
  );
}

/** The same answer whether or not the address has an account, so it reveals nothing. */
export function forgotSentPage(realmName: string, email: string): SafeHtml {
  return layout(
    `Check your e-mail · ${realmName}`,
    html`<h1>Check your e-mail</h1>
<p>If an account exists for <strong>${email}</strong>, we sent a link to it. The link works once, for 24 hours.</p>
<p>Nothing arrived after a few minutes? Check your spam folder, or ask an administrator of ${realmName}.</p>
<a class="secondary" href="/login">Back to sign-in</a>`,
  );
}

export function resetPage(context: { token: string; realmName: string; email: string }, error?: string): SafeHtml {
  return layout(
    `Choose a new password · ${context.realmName}`,
    html`<h1>Choose a new password</h1>
<p>For <strong>${context.email}</strong> in ${context.realmName}. You will be signed out everywhere else.</p>
${errorBox(error)}
<form method="post" action="/reset/${context.token}">
${field({ name: "password", label: "New password", type: "password", maxLength: 1024, minLength: 8, autocomplete: "new-password", hint: "At least 8 characters.", autofocus: true })}
${field({ name: "password_confirmation", label: "New password again", type: "password", maxLength: 1024, minLength: 8, autocomplete: "new-password" })}
<button class="button" type="submit">Set my new password</button>
</form>`,
  );
}

const EXPLANATIONS: Record<ResetUnusableReason, { title: string; text: string }> = {
  unknown: { title: "This reset link is not valid", text: "Check that you copied the whole link, or ask for a new one." },
  used: { title: "This reset link was already used", text: "Each link works once, and a newer link replaces older ones. Sign in, or ask for a new link." },
  expired: { title: "This reset link has expired", text: "Links work for 24 hours. Ask for a new one." },
  unavailable: { title: "This reset link no longer works", text: "The account cannot sign in any more. Ask the organization\u2019s administrators." },
};

export function unusableResetPage(realmName: string, reason: ResetUnusableReason): SafeHtml {
  const { title, text } = EXPLANATIONS[reason];
  return layout(
    `${title} · ${realmName}`,
    html`<h1>${title}</h1>
<p>${text}</p>
<a class="secondary" href="/password/forgot">Ask for a new link</a>
<a class="secondary" href="/login">Sign in to ${realmName}</a>`,
  );
}
