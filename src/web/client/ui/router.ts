import { signal } from "@preact/signals";

/** The page's path as a signal: sections are URLs, so Back, Forward and bookmarks work. */
export const currentPath = signal(location.pathname);

addEventListener("popstate", () => {
  currentPath.value = location.pathname;
});

export function navigate(path: string) {
  if (path === location.pathname) return;
  history.pushState(null, "", path);
  currentPath.value = path;
  scrollTo(0, 0);
}

/** A click on an in-app link changes the section without reloading the page. */
export function followLink(event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element).closest("a");
  const href = anchor?.getAttribute("href");
  // Links into another area (data-reload) load that area's page.
  if (!anchor || !href || !href.startsWith("/") || anchor.target || anchor.hasAttribute("download") || anchor.hasAttribute("data-reload")) return;
  event.preventDefault();
  navigate(href);
}
