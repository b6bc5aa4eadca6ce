import { SafeHtml, html } from "./html";

/**
 * The few pages a browser sees before there is a web client: first-run setup and sign-in.
 * Inline so the compiled binary needs no files beside it.
 */

const STYLE = new SafeHtml(`
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; padding: 24px;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f3f4f6; color: #1f2328; }
main { width: 100%; max-width: 440px; background: #fff; border: 1px solid #dde1e6; border-radius: 12px; padding: 32px;
  box-shadow: 0 1px 3px rgba(0, 0, 0, .06); }
.brand { margin: 0 0 20px; font-weight: 700; color: #2f5fd0; letter-spacing: .02em; }
h1 { margin: 0 0 6px; font-size: 1.45rem; line-height: 1.25; }
p { margin: 0 0 16px; color: #4b5563; }
label, .label { display: block; margin: 16px 0 6px; font-size: .9rem; font-weight: 600; color: #1f2328; }
input { width: 100%; padding: 9px 11px; font: inherit; color: inherit; background: #fff; border: 1px solid #c3cad3; border-radius: 8px; }
input:focus { outline: 2px solid #2f5fd0; outline-offset: 1px; border-color: #2f5fd0; }
input[readonly] { background: #f3f4f6; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; }
.hint { margin: 4px 0 0; font-size: .85rem; color: #6b7280; }
.button { display: block; width: 100%; margin-top: 24px; padding: 10px 14px; font: inherit; font-weight: 600; text-align: center;
  text-decoration: none; color: #fff; background: #2f5fd0; border: 0; border-radius: 8px; cursor: pointer; }
.button:hover { background: #264fb0; }
.secondary { display: block; margin-top: 16px; text-align: center; color: #2f5fd0; }
.error { margin: 16px 0 0; padding: 10px 12px; color: #991b1b; background: #fdeeee; border: 1px solid #f3c4c4; border-radius: 8px; }
pre { margin: 6px 0 0; padding: 12px; overflow-x: auto; font: .85rem/1.5 ui-monospace, SFMono-Regular, Menlo, monospace;
  background: #f3f4f6; border: 1px solid #dde1e6; border-radius: 8px; }
`);

function layout(title: string, content: SafeHtml): SafeHtml {
  return html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">Parley</p>
${content}
</main>
</body>
</html>`;
}

interface Field {
  name: string;
  label: string;
  type?: "text" | "email" | "password";
  value?: string;
  maxLength: number;
  minLength?: number;
  autocomplete: string;
  hint?: string;
  autofocus?: boolean;
}

function field(f: Field): SafeHtml {
  return html`<label for="${f.name}">${f.label}</label>
<input id="${f.name}" name="${f.name}" type="${f.type ?? "text"}" value="${f.value ?? ""}" maxlength="${f.maxLength}"${f.minLength ? html` minlength="${f.minLength}"` : ""} autocomplete="${f.autocomplete}" required${f.autofocus ? html` autofocus` : ""}>
${f.hint ? html`<p class="hint">${f.hint}</p>` : ""}`;
}

const errorBox = (message: string | undefined) => (message ? html`<p class="error" role="alert">${message}</p>` : "");

export interface SetupValues {
  setup_code?: string;
  org_name?: string;
  full_name?: string;
  email?: string;
}

export function setupPage(values: SetupValues = {}, error?: string): SafeHtml {
  return layout(
    "Set up Parley",
    html`<h1>Set up your organization</h1>
<p>This server has no organization yet. Create it and your owner account.</p>
${errorBox(error)}
<form method="post" action="/setup">
${field({ name: "setup_code", label: "Setup code", value: values.setup_code, maxLength: 64, autocomplete: "off", autofocus: true, hint: "Printed in the server\u2019s log when it started, on the line \u201cSetup code: \u2026\u201d. A restart prints a new one." })}
${field({ name: "org_name", label: "Organization name", value: values.org_name, maxLength: 40, autocomplete: "organization" })}
${field({ name: "full_name", label: "Your name", value: values.full_name, maxLength: 100, autocomplete: "name" })}
${field({ name: "email", label: "Your e-mail address", type: "email", value: values.email, maxLength: 254, autocomplete: "email", hint: "You will sign in with it." })}
${field({ name: "password", label: "Password", type: "password", maxLength: 1024, minLength: 8, autocomplete: "new-password", hint: "At least 8 characters." })}
<button class="button" type="submit">Create organization</button>
</form>`,
  );
}

export function setupDonePage(orgName: string, ownerEmail: string): SafeHtml {
  return layout(
    "Organization created",
    html`<h1>${orgName} is ready</h1>
<p>Your organization and your owner account were created. Sign in as <strong>${ownerEmail}</strong> with the password you chose.</p>
<a class="button" href="/">Continue to sign in</a>`,
  );
}

export function alreadySetUpPage(): SafeHtml {
  return layout(
    "Already set up",
    html`<h1>Already set up</h1>
<p>This server already has an organization; it cannot be set up again.</p>
<a class="button" href="/">Go to sign in</a>`,
  );
}

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
