import { SafeHtml, html } from "./html";

/**
 * What every page a browser sees shares: the frame, the style, form fields and the error box.
 * Inline so the compiled binary needs no files beside it.
 */

const STYLE = new SafeHtml(`
:root { color-scheme: light dark; --bg: #f6f7f9; --surface: #fff; --surface-2: #f1f3f6; --border: #dfe3e8; --border-strong: #c5ccd5;
  --text: #1b1f24; --text-2: #56606c; --accent: #3559d6; --accent-hover: #2846b8; --accent-text: #fff; --danger: #b42318; --danger-soft: #fdeceb; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #15171c; --surface: #1d2027; --surface-2: #252932; --border: #2f343e; --border-strong: #434a57;
    --text: #e7e9ee; --text-2: #a6adba; --accent: #7b9bff; --accent-hover: #98b1ff; --accent-text: #0d1222; --danger: #ff7b72; --danger-soft: #3a1f1f; }
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; padding: 24px;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--text); }
main { width: 100%; max-width: 440px; background: var(--surface); border: 1px solid var(--border); border-radius: 12px; padding: 32px;
  box-shadow: 0 1px 3px rgba(0, 0, 0, .06); }
.brand { display: flex; align-items: center; gap: 10px; margin: 0 0 20px; font-weight: 700; }
.brand-mark { width: 30px; height: 30px; border-radius: 8px; background: var(--accent); color: var(--accent-text); display: grid; place-items: center; font-size: 15px; }
h1 { margin: 0 0 6px; font-size: 1.45rem; line-height: 1.25; }
p { margin: 0 0 16px; color: var(--text-2); }
a { color: var(--accent); }
label, .label { display: block; margin: 16px 0 6px; font-size: .9rem; font-weight: 600; color: var(--text); }
input { width: 100%; padding: 9px 11px; font: inherit; color: inherit; background: var(--surface); border: 1px solid var(--border-strong); border-radius: 8px; }
input:focus { outline: 2px solid var(--accent); outline-offset: 1px; border-color: var(--accent); }
input[readonly] { background: var(--surface-2); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; }
.hint { margin: 4px 0 0; font-size: .85rem; color: var(--text-2); }
.centered { margin-top: 20px; text-align: center; }
.button { display: block; width: 100%; margin-top: 24px; padding: 10px 14px; font: inherit; font-weight: 600; text-align: center;
  text-decoration: none; color: var(--accent-text); background: var(--accent); border: 0; border-radius: 8px; cursor: pointer; }
.button:hover { background: var(--accent-hover); }
.secondary { display: block; margin-top: 16px; text-align: center; color: var(--accent); }
.error { margin: 16px 0 0; padding: 10px 12px; color: var(--danger); background: var(--danger-soft); border: 1px solid transparent; border-radius: 8px; }
pre { margin: 6px 0 0; padding: 12px; overflow-x: auto; font: .85rem/1.5 ui-monospace, SFMono-Regular, Menlo, monospace;
  background: var(--surface-2); border: 1px solid var(--border); border-radius: 8px; }
`);

export function layout(title: string, content: SafeHtml): SafeHtml {
  return html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="manifest" href="/manifest.webmanifest">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand"><span class="brand-mark" aria-hidden="true">P</span>Parley</p>
${content}
</main>
</body>
</html>`;
}

export interface Field {
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

export function field(f: Field): SafeHtml {
  return html`<label for="${f.name}">${f.label}</label>
<input id="${f.name}" name="${f.name}" type="${f.type ?? "text"}" value="${f.value ?? ""}" maxlength="${f.maxLength}"${f.minLength ? html` minlength="${f.minLength}"` : ""} autocomplete="${f.autocomplete}" required${f.autofocus ? html` autofocus` : ""}>
${f.hint ? html`<p class="hint">${f.hint}</p>` : ""}`;
}

export const errorBox = (message: string | undefined) => (message ? html`<p class="error" role="alert">${message}</p>` : "");
