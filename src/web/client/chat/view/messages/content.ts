import { showEmoji } from "../../emoji/render";

/**
 * The server's rendered HTML in a row: set as it came (the server sanitized it), then made
 * ready for this page: emoji drawn as characters, links out of the chat opened in a new tab,
 * mentions of the viewer marked, spoilers made to open and close.
 */

/** A link to a place in this chat (a channel, a topic, a message) stays in this tab. */
function isChatLink(link: HTMLAnchorElement): boolean {
  try {
    const url = new URL(link.href);
    return url.origin === location.origin && url.pathname === "/" && url.hash.startsWith("#narrow");
  } catch {
    return false;
  }
}

export function fillContent(element: HTMLElement, html: string, myId: number) {
  element.innerHTML = html;
  showEmoji(element);
  for (const link of element.querySelectorAll<HTMLAnchorElement>("a[href]")) {
    if (isChatLink(link)) continue;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
  }
  for (const mention of element.querySelectorAll(`.user-mention[data-user-id="${myId}"], .user-mention[data-user-id="*"], .topic-mention`)) mention.classList.add("user-mention-me");
  for (const header of element.querySelectorAll<HTMLElement>(".spoiler-header")) {
    header.setAttribute("role", "button");
    header.tabIndex = 0;
    header.setAttribute("aria-expanded", "false");
  }
}

function toggleSpoiler(header: HTMLElement) {
  const block = header.closest(".spoiler-block");
  if (!block) return;
  const open = block.classList.toggle("spoiler-open");
  header.setAttribute("aria-expanded", String(open));
  block.querySelector(".spoiler-content")?.setAttribute("aria-hidden", String(!open));
}

/** Clicks and keys inside the content: spoiler headers open their spoiler. */
export function onContentEvent(event: MouseEvent | KeyboardEvent) {
  if (event instanceof KeyboardEvent && event.key !== "Enter" && event.key !== " ") return;
  const header = (event.target as Element).closest?.<HTMLElement>(".spoiler-header");
  if (!header) return;
  // A link inside the header still works.
  if ((event.target as Element).closest("a")) return;
  event.preventDefault();
  toggleSpoiler(header);
}
