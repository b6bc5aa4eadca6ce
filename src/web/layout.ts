import { SafeHtml, html } from "./html";

/**
 * What every page a browser sees shares: the frame, the style, form fields and the error box.
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

export function layout(title: string, content: SafeHtml): SafeHtml {
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
