import { LinkifyIt } from "linkify-it";

/**
 * URL rules shared by the renderer and linkifiers: which hrefs are safe to emit, and how
 * Zulip-style narrow links (`/#narrow/channel/...`) are spelled.
 */

/**
 * Allow-list of link targets. Anything else (javascript:, data:, vbscript:, protocol-relative
 * `//host`, odd schemes) is left as text, so a link can never run script or leave the safe set.
 */
export function isSafeHref(url: string): boolean {
  const lower = url.trim().toLowerCase();
  if (lower.startsWith("http://") || lower.startsWith("https://") || lower.startsWith("mailto:")) {
    return true;
  }
  if (lower.startsWith("#")) return true;
  // Root-relative paths only; "//x" and "/\x" are read by browsers as another host.
  return lower.startsWith("/") && !lower.startsWith("//") && !lower.startsWith("/\\");
}

/** Links a linkifier may produce: absolute http(s) only. */
export function isWebUrl(url: string): boolean {
  return /^https?:\/\/[^\s/?#]/i.test(url);
}

/**
 * Encoding of one narrow-URL component, as Zulip's clients decode it: percent-encode every
 * byte except unreserved characters, then write "." as ".2E" and "%" as ".".
 */
export function encodeHashComponent(component: string): string {
  return encodeURIComponent(component.toWellFormed())
    .replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/\./g, "%2E")
    .replace(/%/g, ".");
}

/** "/#narrow/channel/12-general-chat" */
export function channelNarrowUrl(channelId: number, channelName: string): string {
  return `/#narrow/channel/${channelId}-${encodeHashComponent(channelName.replace(/ /g, "-"))}`;
}

export function topicNarrowUrl(channelId: number, channelName: string, topic: string): string {
  return `${channelNarrowUrl(channelId, channelName)}/topic/${encodeHashComponent(topic)}`;
}

export function messageNarrowUrl(
  channelId: number,
  channelName: string,
  topic: string,
  messageId: number,
): string {
  return `${topicNarrowUrl(channelId, channelName, topic)}/near/${messageId}`;
}

/**
 * Links into this organization become relative, as Zulip does, so they keep working when the
 * server's address changes and clients open them in-app.
 */
export function relativizeLocalUrl(href: string, realmUrl: string | undefined): string {
  if (!realmUrl) return href;
  const prefix = realmUrl.replace(/\/+$/, "") + "/";
  if (href.startsWith(prefix + "#") || href.startsWith(prefix + "user_uploads/")) {
    return href.slice(prefix.length);
  }
  return href;
}

const IMAGE_PATH = /\.(?:png|jpe?g|gif|webp|bmp|svg|avif)$/i;

/** Whether a link points at an image file (drives has_image, as Zulip's previews would). */
export function looksLikeImageUrl(href: string): boolean {
  const path = href.split(/[?#]/, 1)[0] ?? "";
  return IMAGE_PATH.test(path);
}

// Country-code domains that are far more often file extensions ("readme.md", "views.py").
const FILE_EXTENSION_TLDS = new Set(["md", "py", "zip", "mov", "sh", "rs", "pl"]);

/**
 * Whether text may hold anything the detector finds: a scheme's "//" or "mailto:", an "@" of
 * an e-mail address, or a dot followed by a letter or digit, without which no domain is
 * written. linkify-it runs its fuzzy-link expression, a few thousand characters long, over
 * the whole text on every test, which made it most of the cost of rendering a short message;
 * most messages fail this check and skip it.
 */
export function mayHoldLink(text: string): boolean {
  return text.includes("//") || text.includes("@") || /\.[\p{L}\p{N}]|mailto:/iu.test(text);
}

/** Finds bare URLs ("https://x.org", "example.com/path") the way message text is linkified. */
export function createBareUrlDetector(options: { emails: boolean }): LinkifyIt {
  const detector = new LinkifyIt().set({ fuzzyLink: true, fuzzyEmail: options.emails, fuzzyIP: false });
  detector.tlds(detector.__opts__.tlds.filter((tld) => !FILE_EXTENSION_TLDS.has(tld)));
  const test = detector.test.bind(detector);
  const match = detector.match.bind(detector);
  detector.test = (text) => mayHoldLink(text) && test(text);
  detector.match = (text) => (mayHoldLink(text) ? match(text) : null);
  return detector;
}
