import { emojiChar } from "./data";

/**
 * The server writes a Unicode emoji as `<span class="emoji emoji-1f642" role="img"
 * aria-label="smile">:smile:</span>`, for clients that draw it from a sprite sheet by class.
 * There is none here: the span gets the character itself, keeping its label and title.
 */

const CODE_CLASS = /(?:^|\s)emoji-([0-9a-f]+(?:-[0-9a-f]+)*)(?:\s|$)/;

/** Called on each message row as its HTML is set: one query when there is no emoji. */
export function showEmoji(root: Element) {
  for (const span of root.querySelectorAll<HTMLElement>("span.emoji")) {
    const code = CODE_CLASS.exec(span.className)?.[1];
    const char = code ? emojiChar(code) : "";
    if (char && span.textContent !== char) span.textContent = char;
  }
  // The built-in :zulip: points at an image this server does not serve (the browser still asks
  // for it once, a 404); a badge stands in, as in reactions.
  for (const image of root.querySelectorAll<HTMLImageElement>('img.emoji[src$="/unicode/zulip.png"]')) {
    image.replaceWith(zulipBadge(root.ownerDocument));
  }
}

function zulipBadge(document: Document): HTMLElement {
  const badge = document.createElement("span");
  badge.className = "emoji emoji-zulip";
  badge.setAttribute("role", "img");
  badge.setAttribute("aria-label", "zulip");
  badge.title = "zulip";
  badge.textContent = "Z";
  return badge;
}
