import type { Entry } from "./assets/build";
import { webAssets } from "./assets/store";
import { html } from "./html";

/**
 * The page a browser area (web/client/<entry>/) starts from: an empty document that loads its
 * script and the stylesheet. Everything it shows, it fetches from /api/v1 with the session.
 */

// Only our own files run; the API is the only thing scripts talk to.
const APP_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

export async function appShell(entry: Entry, title: string): Promise<Response> {
  const assets = await webAssets();
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, interactive-widget=resizes-content">
<meta name="color-scheme" content="light dark">
<meta name="theme-color" content="#f6f7f9" media="(prefers-color-scheme: light)">
<meta name="theme-color" content="#15171c" media="(prefers-color-scheme: dark)">
<title>${title}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="manifest" href="/manifest.webmanifest">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<meta name="mobile-web-app-capable" content="yes">
<meta name="apple-mobile-web-app-capable" content="yes">
<meta name="apple-mobile-web-app-status-bar-style" content="default">
<link rel="stylesheet" href="/static/web/${assets.stylesheet}">
<script type="module" src="/static/web/${assets.scripts[entry]}"></script>
</head>
<body>
<div id="app"></div>
<noscript><p class="noscript">This page needs JavaScript.</p></noscript>
</body>
</html>`;
  return new Response(page.value, { headers: APP_HEADERS });
}
