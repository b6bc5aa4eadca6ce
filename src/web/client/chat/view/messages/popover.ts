/**
 * Places a floating box (the actions menu, the emoji picker) beside the button that opened
 * it, inside the window: below it when there is room, else above, right edges aligned. The
 * box is position: fixed, so nothing inside a message row (rows contain their paint) clips it.
 * On a phone the stylesheet turns these boxes into bottom sheets and ignores the position.
 */

const MARGIN = 8;

export function placeBeside(box: HTMLElement, anchor: Element) {
  const near = anchor.getBoundingClientRect();
  const { width, height } = box.getBoundingClientRect();
  const fitsBelow = near.bottom + 4 + height <= innerHeight - MARGIN;
  const top = fitsBelow || near.top - 4 - height < MARGIN ? Math.max(MARGIN, Math.min(near.bottom + 4, innerHeight - height - MARGIN)) : near.top - 4 - height;
  const left = Math.max(MARGIN, Math.min(near.right - width, innerWidth - width - MARGIN));
  box.style.setProperty("--pop-top", `${Math.round(top)}px`);
  box.style.setProperty("--pop-left", `${Math.round(left)}px`);
}
