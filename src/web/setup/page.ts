import { html, type SafeHtml } from "../html";
import { errorBox, field, layout } from "../layout";

/** First-run setup: what `parley init` does, for someone with a browser and the setup code. */

export interface SetupValues {
  setup_code?: string;
  org_name?: string;
  org_url?: string;
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
${field({ name: "org_url", label: "Organization URL", value: values.org_url, maxLength: 2000, autocomplete: "url", hint: "The address everyone will open, such as https://chat.example.com." })}
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
