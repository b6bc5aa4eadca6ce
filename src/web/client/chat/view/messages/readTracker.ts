import { api } from "../../../ui/api";
import { removeUnreads } from "../../state/unreads";

/**
 * Marks messages read when the person has actually seen them: a row of an unread message
 * counts once it has been wholly inside the list's visible area (or, for a row taller than
 * that, once its end has been) while the tab is visible and has the focus. Ids seen are taken
 * off the unread counts at once and sent together in one POST /messages/flags about every
 * half second; the server's event confirms. A hidden or unfocused tab marks nothing.
 */

const FLUSH_MS = 500;
const RETRY_MS = 5_000;
/** Fine steps, so a tall row's end coming into view is noticed within a few pixels of scrolling. */
const THRESHOLDS = Array.from({ length: 21 }, (_, step) => step / 20);

export interface ReadTracker {
  /** Sets the rows to watch: those of unread messages now in the list. */
  watch(rows: Map<Element, number>): void;
  /** Looks again at what is on screen (the view moved without scrolling, the policy changed). */
  recheck(): void;
  dispose(): void;
}

/** Whether a row is seen: wholly visible, or its end visible when it is taller than the view. */
function isSeen(entry: IntersectionObserverEntry): boolean {
  if (!entry.isIntersecting) return false;
  if (entry.intersectionRatio >= 0.99) return true;
  const rootHeight = entry.rootBounds?.height ?? 0;
  const taller = entry.boundingClientRect.height >= rootHeight - 1;
  return taller && entry.intersectionRect.bottom >= entry.boundingClientRect.bottom - 1;
}

export const canSeeNow = () => document.visibilityState === "visible" && document.hasFocus();

export function createReadTracker(root: HTMLElement, options: { allowed: () => boolean; isUnread: (id: number) => boolean }): ReadTracker {
  let watched = new Map<Element, number>();
  /** Rows seen on screen right now (kept while the tab is away, counted when it comes back). */
  const onScreen = new Set<number>();
  const toSend = new Set<number>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const id = watched.get(entry.target);
        if (id === undefined) continue;
        if (isSeen(entry)) onScreen.add(id);
        else onScreen.delete(id);
      }
      collect();
    },
    { root, threshold: THRESHOLDS },
  );

  function collect() {
    if (!canSeeNow() || !options.allowed()) return;
    const seen = [...onScreen].filter((id) => options.isUnread(id) && !toSend.has(id));
    if (seen.length === 0) return;
    for (const id of seen) toSend.add(id);
    removeUnreads(seen);
    schedule(FLUSH_MS);
  }

  function schedule(ms: number) {
    timer ??= setTimeout(flush, ms);
  }

  async function flush() {
    timer = null;
    const ids = [...toSend];
    if (ids.length === 0) return;
    try {
      await api("POST", "/messages/flags", { messages: ids, op: "add", flag: "read" });
      for (const id of ids) toSend.delete(id);
    } catch {
      // Still seen: sent again a little later (they stay off the counts meanwhile).
      schedule(RETRY_MS);
    }
  }

  const onAttention = () => collect();
  addEventListener("focus", onAttention);
  document.addEventListener("visibilitychange", onAttention);

  return {
    watch(rows) {
      for (const [row, id] of watched) {
        if (rows.get(row) === id) continue;
        observer.unobserve(row);
        onScreen.delete(id);
      }
      for (const [row] of rows) if (!watched.has(row)) observer.observe(row);
      watched = new Map(rows);
    },
    recheck: collect,
    dispose() {
      observer.disconnect();
      removeEventListener("focus", onAttention);
      document.removeEventListener("visibilitychange", onAttention);
      if (timer) clearTimeout(timer);
      // What was seen is still sent.
      if (toSend.size) void api("POST", "/messages/flags", { messages: [...toSend], op: "add", flag: "read" }).catch(() => undefined);
    },
  };
}
