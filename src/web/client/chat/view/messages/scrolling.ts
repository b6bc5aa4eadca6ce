import { useSignal, useSignalEffect, type Signal } from "@preact/signals";
import { useEffect, useLayoutEffect, useRef, type MutableRef } from "preact/hooks";
import { sameNarrow } from "../../model/narrow";
import { loadInitial, loadNewer, loadOlder, type NarrowList } from "../../state/messages";
import { place } from "../../state/place";
import type { Place } from "../../model/narrow";

/**
 * The message list's scroll position, the part of a chat that most often goes wrong (WEB.md
 * §3, §5). The rules:
 * - A list opens where the person left it (positions are remembered per narrow, so Back
 *   returns there), else at the message the URL names or the first unread (a third of the way
 *   down, briefly highlighted), else at the bottom.
 * - Whatever changes above or below (older messages prepended, the far end trimmed, a list
 *   fetched again after a reconnect, an edit), the first row on screen stays where it was:
 *   its offset is measured while rendering, before the DOM changes, and restored in a layout
 *   effect, before paint. Measuring a row rather than the scroll height also stays right
 *   where the browser's own scroll anchoring has already corrected.
 * - Within 100 px of the newest message the view follows new messages down; further up it
 *   never moves, and a "New messages" button appears instead.
 * - History loads when the person nears either loaded end, with observers, not scroll math.
 */

const NEAR_BOTTOM = 100;
/** How far beyond the visible area the next page is fetched. */
const LOAD_MARGIN = 800;
const FLASH_MS = 2_000;
/** Frames after opening at a message in which the position is applied again (rows settle their size). */
const SETTLE_FRAMES = 4;

const ROWS = "article[data-message-id], article[data-local-id]";

interface Anchor {
  selector: string;
  offset: number;
}

interface Saved {
  anchor: Anchor | null;
  scrollTop: number;
  atBottom: boolean;
}

const savedPositions = new Map<string, Saved>();

const rowSelector = (row: HTMLElement) => (row.dataset.messageId ? `article[data-message-id="${row.dataset.messageId}"]` : `article[data-local-id="${CSS.escape(row.dataset.localId ?? "")}"]`);
const findRow = (scroller: HTMLElement, id: number) => scroller.querySelector<HTMLElement>(`article[data-message-id="${id}"]`);
const topIn = (row: Element, scroller: HTMLElement) => row.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
const distanceFromBottom = (scroller: HTMLElement) => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;

/**
 * The row to hold in place, and where its top is: the first row that starts on screen, else
 * (a row taller than the view) the first one at least partly on screen. Not a row cut off at
 * the top: its own size may still change (content-visibility estimates rows until they come
 * near the screen), and holding its top would move every row below it, the ones in view.
 */
function firstVisibleRow(scroller: HTMLElement): Anchor | null {
  const rows = scroller.querySelectorAll<HTMLElement>(ROWS);
  const view = scroller.getBoundingClientRect();
  const top = view.top;
  let low = 0;
  let high = rows.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (rows[middle].getBoundingClientRect().bottom > top) {
      found = middle;
      high = middle - 1;
    } else low = middle + 1;
  }
  if (found === -1) return null;
  const next = rows[found + 1];
  if (rows[found].getBoundingClientRect().top < top && next && next.getBoundingClientRect().top < view.bottom) found++;
  return { selector: rowSelector(rows[found]), offset: rows[found].getBoundingClientRect().top - top };
}

export interface Refs {
  scroller: MutableRef<HTMLDivElement | null>;
  content: MutableRef<HTMLDivElement | null>;
  top: MutableRef<HTMLDivElement | null>;
  bottom: MutableRef<HTMLDivElement | null>;
}

export interface Scrolling {
  /** New messages arrived below while the person reads further up. */
  newBelow: Signal<boolean>;
  /** Far enough from the newest messages for a button back to them. */
  far: Signal<boolean>;
  /** The message just opened at, highlighted for a moment. */
  flashId: Signal<number | null>;
  /** The button: down to the newest messages (fetching them when the list does not reach them). */
  toNewest(): void;
}

interface State {
  list: NarrowList | null;
  positioned: boolean;
  /** Follow new messages down. */
  stick: boolean;
  anchor: Anchor | null;
  /** A message to show as soon as the list holds it (a link or the URL named it). */
  jumpTo: number | null;
  /** Waiting for the newest messages, fetched by the button. */
  toNewest: boolean;
  place: Place | null;
  lastId: number | undefined;
  foundNewest: boolean;
  pendingCount: number;
  settle: (() => void) | null;
  fresh: boolean;
}

export function useScrolling(list: NarrowList, refs: Refs, pendingCount: number): Scrolling {
  const newBelow = useSignal(false);
  const far = useSignal(false);
  const flashId = useSignal<number | null>(null);
  const tick = useSignal(0);
  const state = useRef<State>({
    list: null,
    positioned: false,
    stick: true,
    anchor: null,
    jumpTo: null,
    toNewest: false,
    place: null,
    lastId: undefined,
    foundNewest: false,
    pendingCount: 0,
    settle: null,
    fresh: true,
  }).current;
  tick.value;

  // While rendering, the DOM still shows the previous render: measure it now.
  const scroller = refs.scroller.current;
  if (state.list !== list) {
    if (state.list && scroller && state.positioned) savedPositions.set(state.list.key, measure(scroller, state.stick));
    const here = place.peek();
    Object.assign(state, {
      list,
      positioned: false,
      stick: list.foundNewest.peek(),
      anchor: null,
      jumpTo: here.anchor !== undefined && sameNarrow(here.narrow, list.narrow) ? here.anchor : null,
      toNewest: false,
      place: here,
      lastId: undefined,
      settle: null,
      fresh: true,
    });
  } else if (scroller && state.positioned) state.anchor = firstVisibleRow(scroller);

  // The functions below may run from observers set up at mount: they read the list from `state`.
  const shown = () => state.list as NarrowList;

  function pinBottom(element: HTMLElement) {
    element.scrollTop = element.scrollHeight;
    state.stick = shown().foundNewest.peek();
  }

  function settle(again: () => void) {
    state.settle = again;
    let frames = SETTLE_FRAMES;
    const step = () => {
      if (state.settle !== again) return;
      again();
      if (--frames > 0) requestAnimationFrame(step);
      else state.settle = null;
    };
    requestAnimationFrame(step);
  }

  function showRow(element: HTMLElement, id: number, flash: boolean) {
    const place = () => {
      const row = findRow(element, id);
      if (row) element.scrollTop += topIn(row, element) - element.clientHeight / 3;
      state.anchor = firstVisibleRow(element);
    };
    place();
    state.stick = shown().foundNewest.peek() && distanceFromBottom(element) < NEAR_BOTTOM;
    settle(place);
    if (!flash) return;
    flashId.value = id;
    setTimeout(() => flashId.value === id && (flashId.value = null), FLASH_MS);
  }

  function keep(element: HTMLElement, anchor: Anchor) {
    const row = element.querySelector(anchor.selector);
    if (!row) return;
    const moved = topIn(row, element) - anchor.offset;
    if (Math.abs(moved) >= 1) element.scrollTop += moved;
  }

  function restore(element: HTMLElement, saved: Saved) {
    if (saved.atBottom) return pinBottom(element);
    const row = saved.anchor && element.querySelector(saved.anchor.selector);
    if (!row || !saved.anchor) {
      element.scrollTop = saved.scrollTop;
      return;
    }
    const anchor = saved.anchor;
    keep(element, anchor);
    settle(() => keep(element, anchor));
  }

  /** The first placing of a list; false while it has to wait for the list to arrive. */
  function position(element: HTMLElement): boolean {
    const list = shown();
    const ids = list.ids.peek();
    const loading = list.loading.peek() === "initial";
    if (loading && (ids.length === 0 || state.toNewest || (state.jumpTo !== null && !ids.includes(state.jumpTo)))) return false;
    const saved = savedPositions.get(list.key);
    const openAt = list.openAt.peek();
    if (state.jumpTo !== null && ids.includes(state.jumpTo)) showRow(element, state.jumpTo, true);
    else if (state.toNewest) pinBottom(element);
    else if (saved) restore(element, saved);
    else if (openAt !== null && ids.includes(openAt)) showRow(element, openAt, true);
    else pinBottom(element);
    state.jumpTo = null;
    state.toNewest = false;
    return true;
  }

  useLayoutEffect(() => {
    const element = refs.scroller.current;
    if (!element) return;
    if (state.fresh) {
      state.fresh = false;
      newBelow.value = false;
    }
    const ids = list.ids.peek();
    const last = ids.at(-1);
    if (!state.positioned) {
      if (!position(element)) return;
      state.positioned = true;
    } else if (state.jumpTo !== null && list.loading.peek() !== "initial" && ids.includes(state.jumpTo)) {
      showRow(element, state.jumpTo, true);
      state.jumpTo = null;
    } else if (state.jumpTo !== null && list.loading.peek() === null && !ids.includes(state.jumpTo)) {
      // The message named is not in this narrow after all.
      state.jumpTo = null;
    } else if (pendingCount > state.pendingCount) {
      // The person just sent a message: show it, wherever they were (the newest fetched first if need be).
      if (list.foundNewest.peek()) pinBottom(element);
      else toNewest();
    } else if (state.stick) pinBottom(element);
    else if (state.anchor) keep(element, state.anchor);
    // Live messages arrive only at a list that reaches the newest end; pages fetched there are not news.
    if (state.foundNewest && state.lastId !== undefined && last !== undefined && last > state.lastId && !state.stick) newBelow.value = true;
    state.lastId = last;
    state.foundNewest = list.foundNewest.peek();
    state.pendingCount = pendingCount;
    state.anchor = firstVisibleRow(element);
    updateButtons(element);
  });

  function updateButtons(element: HTMLElement) {
    const list = shown();
    const distance = distanceFromBottom(element);
    const atNewest = list.foundNewest.peek() && distance < NEAR_BOTTOM;
    if (atNewest) newBelow.value = false;
    far.value = !atNewest && list.ids.peek().length > 0 && (distance > element.clientHeight || !list.foundNewest.peek());
  }

  function checkEdges() {
    const element = refs.scroller.current;
    const current = state.list;
    if (!element || !current || !state.positioned || current.loading.peek() || current.error.peek() || current.ids.peek().length === 0) return;
    const box = element.getBoundingClientRect();
    const top = refs.top.current?.getBoundingClientRect();
    const bottom = refs.bottom.current?.getBoundingClientRect();
    if (!current.foundOldest.peek() && top && top.bottom > box.top - LOAD_MARGIN) void loadOlder(current);
    else if (!current.foundNewest.peek() && bottom && bottom.top < box.bottom + LOAD_MARGIN) void loadNewer(current);
  }

  // After each render: a page may have landed with the end still in reach.
  useEffect(checkEdges);

  useEffect(() => {
    const element = refs.scroller.current;
    const content = refs.content.current;
    if (!element || !content) return;
    const edges = new IntersectionObserver(checkEdges, { root: element, rootMargin: `${LOAD_MARGIN}px 0px` });
    for (const sentinel of [refs.top.current, refs.bottom.current]) if (sentinel) edges.observe(sentinel);
    // Rows settle their size after they are drawn (content-visibility estimates them until they
    // come near the screen; images load): at the bottom the view stays there, elsewhere the row
    // on screen stays put. Observers report after layout and before paint, so nothing jumps.
    const sizes = new ResizeObserver(() => {
      if (!state.positioned) return;
      if (state.stick) pinBottom(element);
      else if (state.anchor) {
        keep(element, state.anchor);
        state.anchor = firstVisibleRow(element);
      }
    });
    sizes.observe(content);
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (!state.positioned) return;
        state.stick = shown().foundNewest.peek() && distanceFromBottom(element) < NEAR_BOTTOM;
        state.anchor = firstVisibleRow(element);
        updateButtons(element);
      });
    };
    // The person's own hand stops the settling after an open.
    const takeOver = () => (state.settle = null);
    element.addEventListener("scroll", onScroll, { passive: true });
    for (const type of ["wheel", "touchstart", "pointerdown", "keydown"]) element.addEventListener(type, takeOver, { passive: true });
    return () => {
      edges.disconnect();
      sizes.disconnect();
      cancelAnimationFrame(frame);
      element.removeEventListener("scroll", onScroll);
      for (const type of ["wheel", "touchstart", "pointerdown", "keydown"]) element.removeEventListener(type, takeOver);
      // Unmounting (the DOM is still there): remember where this list was.
      if (state.list && state.positioned) savedPositions.set(state.list.key, measure(element, state.stick));
    };
  }, []);

  // A link to a message in the list already shown: go there.
  useSignalEffect(() => {
    const here = place.value;
    if (here === state.place) return;
    state.place = here;
    if (here.anchor === undefined || !state.list || !sameNarrow(here.narrow, state.list.narrow)) return;
    state.jumpTo = here.anchor;
    tick.value = tick.peek() + 1;
  });

  function toNewest() {
    const element = refs.scroller.current;
    const list = shown();
    if (!element) return;
    if (list.foundNewest.peek()) {
      pinBottom(element);
      newBelow.value = false;
      updateButtons(element);
      return;
    }
    state.positioned = false;
    state.toNewest = true;
    void loadInitial(list, "newest");
  }

  return { newBelow, far, flashId, toNewest };
}

function measure(scroller: HTMLElement, stick: boolean): Saved {
  return { anchor: firstVisibleRow(scroller), scrollTop: scroller.scrollTop, atBottom: stick };
}
