import { html, type SafeHtml } from "../html";
import { errorBox, field, layout } from "../layout";

/** Sign-in, which hands out the API key and zuliprc until there is a web client. */

export function signInPage(realmName: string, email = "", error?: string): SafeHtml {
  return layout(
    `Sign in · ${realmName}`,
    html`<h1>Sign in to ${realmName}</h1>
${errorBox(error)}
<form method="post" action="/login">
${field({ name: "username", label: "E-mail address", type: "email", value: email, maxLength: 254, autocomplete: "username", autofocus: email === "" })}
${field({ name: "password", label: "Password", type: "password", maxLength: 1024, autocomplete: "current-password", autofocus: email !== "" })}
<button class="button" type="submit">Sign in</button>
</form>`,
  );
}

export interface SignedIn {
  fullName: string;
  email: string;
  apiKey: string;
  realmUrl: string;
}

/** The configuration file Zulip-compatible tools (python-zulip-api, zulip-terminal) read. */
export const zuliprc = (account: SignedIn) => `[api]\nemail=${account.email}\nkey=${account.apiKey}\nsite=${account.realmUrl}\n`;

export function signedInPage(account: SignedIn): SafeHtml {
  const rc = zuliprc(account);
  return layout(
    "Signed in",
    html`<h1>Welcome, ${account.fullName}</h1>
<p>There is no web chat client yet. Connect a Zulip-compatible app (mobile, desktop or terminal) to <strong>${account.realmUrl}</strong> and sign in with your e-mail address and password, or use your API key in scripts.</p>
<label for="api_key">Your API key</label>
<input id="api_key" type="text" value="${account.apiKey}" readonly>
<p class="hint">Anyone with this key can act as you. Keep it secret.</p>
<p class="label">Your zuliprc file</p>
<pre>${rc}</pre>
<a class="button" href="data:text/plain;charset=utf-8,${encodeURIComponent(rc)}" download="zuliprc">Download zuliprc</a>
<a class="secondary" href="/">Sign in as someone else</a>`,
  );
}
