/** Markup known to be safe: built by `html` from escaped values and our own literals. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]);

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/**
 * Template tag for pages: every interpolated value is escaped unless it is itself SafeHtml,
 * so user text (names, e-mails, error messages) cannot become markup by accident.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

// Pages carry no scripts and load nothing but the app's icons and manifest (web/webApp/, so the
// sign-in page can be added to a home screen too); frames are refused so nobody can overlay the forms.
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; manifest-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // Not no-referrer: with it, a browser sends `Origin: null` on the forms' own POSTs, which
  // the sign-in forms' origin check (http/session.ts checkFormOrigin) must refuse.
  "referrer-policy": "same-origin",
  // The signed-in page shows an API key; no cache may keep it.
  "cache-control": "no-store",
};

export function htmlResponse(page: SafeHtml, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(`<!doctype html>\n${page.value}`, { status, headers: { ...PAGE_HEADERS, ...headers } });
}
