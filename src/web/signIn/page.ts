import { html, type SafeHtml } from "../html";
import { errorBox, field, layout } from "../layout";

/** Sign-in: a plain form, so it works before any script loads and for scripts that post it. */

export interface SignInValues {
  email?: string;
  /** Where to go once signed in (a path on this server). */
  next?: string;
  error?: string;
}

export function signInPage(realmName: string, values: SignInValues = {}): SafeHtml {
  const email = values.email ?? "";
  return layout(
    `Sign in · ${realmName}`,
    html`<h1>Sign in to ${realmName}</h1>
${errorBox(values.error)}
<form method="post" action="/login">
${values.next ? html`<input type="hidden" name="next" value="${values.next}">` : ""}
${field({ name: "username", label: "E-mail address", type: "email", value: email, maxLength: 254, autocomplete: "username", autofocus: email === "" })}
${field({ name: "password", label: "Password", type: "password", maxLength: 1024, autocomplete: "current-password", autofocus: email !== "" })}
<button class="button" type="submit">Sign in</button>
</form>
<a class="secondary" href="/password/forgot">Forgot your password?</a>`,
  );
}

/** The configuration file Zulip-compatible tools (python-zulip-api, zulip-terminal) read. */
export const zuliprc = (account: { email: string; apiKey: string; realmUrl: string }) => `[api]\nemail=${account.email}\nkey=${account.apiKey}\nsite=${account.realmUrl}\n`;
