import { read, write, writeUpkeep } from "./transaction";
import type { Reader, Tx, UpkeepTx } from "./types";

/**
 * Long work in short transactions. Parley is one process and every transaction runs on the
 * event loop, so one long transaction (or one long loop) keeps every other request waiting.
 * Work that grows with what a caller sends or with the size of the organization is done in
 * slices instead: each is its own transaction of about SLICE_MS, and between two slices the
 * event loop serves everyone else. Each slice commits what it did and emits its own events,
 * so a failure leaves what the slices before it did, which a repeated request finds done.
 */

/** How long one slice may run before it commits and lets others in. */
export const SLICE_MS = 20;

/** The time of one slice. Work checks `over` between steps small enough to take a few milliseconds. */
export class Slice {
  private readonly ends = performance.now() + SLICE_MS;

  get over(): boolean {
    return performance.now() >= this.ends;
  }
}

/**
 * Lets the event loop answer what is waiting before going on. A timer rather than
 * setImmediate: Bun runs a due immediate before reading sockets again, so between two
 * slices at most one waiting request would get through; a timer's turn reads them all.
 */
export const yieldToOthers = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs `step` in one write() per slice until it returns something other than undefined,
 * which is the result. Each call must do some of the work, stop once `slice.over` says so,
 * and find where to go on from its arguments or the database: a slice starts afresh.
 */
export function writeInSlices<T>(step: (tx: Tx, slice: Slice) => T | undefined | Promise<T | undefined>): Promise<T> {
  return inSlices(write, step);
}

/** writeInSlices for upkeep (writeUpkeep in db/transaction.ts): each slice one upkeep write. */
export function upkeepInSlices<T>(step: (tx: UpkeepTx, slice: Slice) => T | undefined | Promise<T | undefined>): Promise<T> {
  return inSlices(writeUpkeep, step);
}

/** readInSlices is writeInSlices for reads: each slice one consistent snapshot. */
export function readInSlices<T>(step: (db: Reader, slice: Slice) => T | undefined | Promise<T | undefined>): Promise<T> {
  return inSlices(read, step);
}

function inSlices<H, T>(transaction: <R>(work: (handle: H) => R | Promise<R>) => Promise<R>, step: (handle: H, slice: Slice) => T | undefined | Promise<T | undefined>): Promise<T> {
  return workingInSlices(async () => {
    for (;;) {
      const result = await transaction((handle) => step(handle, new Slice()));
      if (result !== undefined) return result;
      await yieldToOthers();
    }
  });
}

let sliced = 0;

/** Counts `work`, which runs in slices of its own making (with Slice and yieldToOthers), as work in slices while it runs. */
export async function workingInSlices<T>(work: () => Promise<T>): Promise<T> {
  sliced++;
  try {
    return await work();
  } finally {
    sliced--;
  }
}

/**
 * Whether work in slices is under way (more than `besides` of it: upkeep in slices counts
 * itself out): upkeep that cannot be cut as fine (merging the search index) waits for a
 * moment when it is not, so as not to lengthen the pauses between others' slices.
 */
export const workInSlicesUnderWay = (besides = 0) => sliced > besides;

/**
 * How many message IDs one step of a walk through history covers. It doubles while steps are
 * quick and halves (down to a floor) when one is slow, so a step takes a few milliseconds
 * whatever it looks for: a condition that matches few messages is walked in large steps, one
 * looked up row by row in small ones. A step still slow at the floor costs what it costs
 * whatever its size (a full-text lookup of common words is mostly a fixed cost): from then on
 * the steps only grow, so that the walk takes as few of them as it can.
 */
const STRIDE_FLOOR = 1024;
const STRIDE_MOST = 1 << 20;
/** Where a walk starts: most narrows find a page's worth in fewer IDs, and each step is a query. */
const STRIDE_FIRST = 16_384;

export class Stride {
  ids = STRIDE_FIRST;
  private fixedCost = false;

  /** Call after each step with the time it started. */
  after(startedAt: number) {
    const ms = performance.now() - startedAt;
    if (ms > 8 && this.ids <= STRIDE_FLOOR) this.fixedCost = true;
    if ((ms < 2 || this.fixedCost) && this.ids < STRIDE_MOST) this.ids *= 2;
    else if (ms > 8 && this.ids > STRIDE_FLOOR) this.ids /= 2;
  }
}
