import { getOutboxItem, lastOutboxId, markOutboxFailed, markOutboxGivenUp, markOutboxSent, type OutboxRow, pendingOutboxAfter, pruneFinishedOutbox } from "../db/outbox";
import { read, writeUpkeep } from "../db/transaction";
import { log } from "../log";
import { type Deliverer, GiveUp, type OutboxKind, RetryLater, type Route } from "./deliverers";
import { deliverers } from "./index";
import { type LaneOutcome, Lanes } from "./lanes";
import { type WaitingItem, WaitingItems } from "./waitingItems";

/**
 * The outbox sender: hands due items to the deliverer of their kind, outside any transaction,
 * in lanes (lanes.ts): items for different destinations go out side by side, each destination
 * with its own bound and backoff, and items with the same order key (a bot's) one at a time in
 * ID order. It runs only when nudged (after a commit that queued something, when a delivery
 * ends, and by the job's sweep), so request handling never waits for it.
 *
 * It keeps the waiting items' routes in memory (waitingItems.ts), learning of new items by ID
 * (db/outbox.ts pendingOutboxAfter) in bounded batches, so a pass costs about the same however
 * many items wait behind a dead destination; the database stays the record of every item's
 * state, and this sender is the only one who changes it. An item is sent at most once at a
 * time (it stays in inFlight until its outcome is marked, each mark one write()), and a try
 * reads the item afresh, after the marks of every earlier try have committed: so an item
 * marked sent is never sent again. Passes run one at a time, each starting what is due in
 * one go, after the reads it awaits.
 */

export interface OutboxPolicy {
  /** Delay after the first failure; doubled after each further one. */
  retryBaseSeconds: number;
  /** The longest delay between tries. */
  retryMaxSeconds: number;
  /** Tries before giving up, for kinds that do not set maxAttempts. */
  maxAttempts: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
/**
 * The whole second at least `delay` seconds from now: items become due when the floored clock
 * reaches it, so a retry from the present second's end still waits the whole delay.
 */
const secondsFromNow = (delay: number) => Math.ceil(Date.now() / 1000) + delay;

/** Finished items are kept this long (for looking into what went out), then deleted. */
const KEEP_FINISHED_SECONDS = 30 * 24 * 3600;
/** New items read per pass; more wait for the next pass, which follows at once. */
const LOAD_BATCH = 100;

let policy: OutboxPolicy | null = null;
let waiting = new WaitingItems();
let loadedUpTo = 0;
let lanes = new Lanes(() => 1);
const inFlight = new Map<number, Promise<void>>();
let passRequested = false;
let passUnderWay = false;
let idleWaiters: (() => void)[] = [];

export function startOutboxRunner(options: OutboxPolicy) {
  policy = options;
  waiting = new WaitingItems();
  loadedUpTo = 0;
  lanes = new Lanes((failures) => backoffSeconds(failures, options));
}

/** How long a clean stop waits for deliveries in flight before closing the database under them. */
const STOP_WAIT_MS = 15_000;

/**
 * Stops starting deliveries and waits (a bounded while) for those in flight to finish and be
 * marked, so that a clean stop never sends an item twice: the database closes only after.
 */
export async function stopOutboxRunner(): Promise<void> {
  policy = null;
  settleIdle();
  if (inFlight.size === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const finished = Promise.allSettled([...inFlight.values()]).then(() => true);
  const waited = await Promise.race([finished, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), STOP_WAIT_MS)))]);
  clearTimeout(timer);
  if (!waited) log.warn(`outbox: ${inFlight.size} deliveries were still under way after ${STOP_WAIT_MS / 1000} s; they will be tried again at the next start`);
}

/** The delay before try number `attempts + 1`, after `attempts` failures. */
export function backoffSeconds(attempts: number, { retryBaseSeconds, retryMaxSeconds }: OutboxPolicy): number {
  const delay = retryBaseSeconds * 2 ** Math.max(0, attempts - 1);
  return Math.max(1, Math.ceil(Math.min(delay, retryMaxSeconds)));
}

/**
 * Kinds held back for now: their items wait untouched (mail while no SMTP server is
 * configured). Kinds without a deliverer are not held: their items are taken and given up.
 */
export async function heldKinds(): Promise<OutboxKind[]> {
  const held: OutboxKind[] = [];
  for (const kind of Object.keys(deliverers) as OutboxKind[]) if (!((await deliverers[kind].ready?.()) ?? true)) held.push(kind);
  return held;
}

/**
 * Asks for a pass over due items. The promise settles once the sender is idle: nothing under
 * way, and nothing due that could start (tests wait on it; the server does not).
 */
export function nudgeOutbox(): Promise<void> {
  if (!policy) return Promise.resolve();
  const idle = new Promise<void>((resolve) => idleWaiters.push(resolve));
  requestPass();
  return idle;
}

/**
 * Another node committed something, which may have queued items: a pass within WAKE_WITHIN_MS.
 * Not one per commit: a busy cluster commits thousands of times a second, and each pass reads.
 */
const WAKE_WITHIN_MS = 100;
let wakeTimer: ReturnType<typeof setTimeout> | null = null;

export function wakeOutbox() {
  if (!policy || wakeTimer) return;
  wakeTimer = setTimeout(() => {
    wakeTimer = null;
    requestPass();
  }, WAKE_WITHIN_MS);
  wakeTimer.unref();
}

function requestPass() {
  if (passRequested) return;
  passRequested = true;
  // After what is running now: a commit's other work, or the other deliveries that just ended.
  // A pass under way runs the next one itself when it ends.
  if (!passUnderWay) setImmediate(pass);
}

function settleIdle() {
  const waiters = idleWaiters;
  idleWaiters = [];
  for (const resolve of waiters) resolve();
}

/** Never rejects: a failed pass is logged, and the next nudge or sweep tries again. */
async function pass() {
  passRequested = false;
  passUnderWay = true;
  if (policy) {
    try {
      const more = await loadNewItems();
      const held = new Set<string>(await heldKinds());
      // Stopped meanwhile: nothing more starts.
      if (policy) startDueItems(policy, held);
      if (more) requestPass();
    } catch (error) {
      log.error(`outbox: a pass failed: ${(error as Error)?.stack ?? error}`);
    }
  }
  passUnderWay = false;
  if (passRequested) setImmediate(pass);
  else if (inFlight.size === 0) settleIdle();
}

/** Learns of items queued since the last look; true when there may be more. */
async function loadNewItems(): Promise<boolean> {
  const { rows, newest } = await read(async (db) => ({ rows: await pendingOutboxAfter(db, loadedUpTo, LOAD_BATCH), newest: await lastOutboxId(db) }));
  for (const row of rows) {
    loadedUpTo = row.id;
    const deliverer = delivererOf(row.kind);
    // A kind this version does not know (a database from a newer Parley): nothing can send it.
    if (!deliverer) await giveUp(row, row.attempts, `No deliverer for outbox items of kind '${row.kind}'`, undefined);
    else waiting.add({ id: row.id, kind: row.kind, route: await routeOf(deliverer, row), nextAttemptAt: row.nextAttemptAt });
  }
  if (rows.length < LOAD_BATCH) loadedUpTo = Math.max(loadedUpTo, newest);
  return rows.length === LOAD_BATCH;
}

const delivererOf = (kind: OutboxKind) => deliverers[kind] as Deliverer<OutboxKind> | undefined;

async function routeOf(deliverer: Deliverer<OutboxKind>, row: OutboxRow): Promise<Route> {
  try {
    return await deliverer.route(row.payload);
  } catch (error) {
    log.error(`outbox: no route for item ${row.id} (${row.kind}), sent in a lane of its own: ${(error as Error)?.stack ?? error}`);
    return { lane: `item ${row.id}`, limit: 1 };
  }
}

/** Starts the due items their lanes have room for, oldest first, keeping order keys in order; none of the `held` kinds. */
function startDueItems(options: OutboxPolicy, held: ReadonlySet<string>) {
  const now = nowSeconds();
  const nowMs = Date.now();
  const ready = (item: WaitingItem) => !held.has(item.kind) && item.nextAttemptAt <= now;
  const underWay = (item: WaitingItem) => inFlight.has(item.id);
  const lanesWaiting = new Set<string>();
  for (const { lane, limit } of waiting.lanes()) {
    lanesWaiting.add(lane);
    if (!lanes.mayStart(lane, limit, nowMs)) continue;
    for (const item of waiting.startable(lane, limit, ready, underWay)) {
      if (!lanes.mayStart(lane, limit, nowMs)) break;
      start(item, options);
    }
  }
  lanes.forgetIdle(lanesWaiting, nowMs);
}

function start(item: WaitingItem, options: OutboxPolicy) {
  lanes.started(item.route.lane);
  const delivery = attempt(item, options)
    .catch((error): LaneOutcome => {
      // Not marked (the database refused the write): it stays waiting, but not due at once, or
      // it would be sent again and again; at least once still holds.
      item.nextAttemptAt = secondsFromNow(backoffSeconds(1, options));
      log.error(`outbox: item ${item.id} (${item.kind}) could not be marked: ${(error as Error)?.stack ?? error}`);
      return "unknown";
    })
    .then((outcome) => {
      const pause = lanes.finished(item.route.lane, outcome, Date.now());
      if (pause !== null) log.warn(`outbox: ${item.route.lane} keeps failing; its items wait ${pause} s`);
    })
    .finally(() => {
      inFlight.delete(item.id);
      requestPass();
    });
  inFlight.set(item.id, delivery);
}

/** One try of one item, marked in the database; what it says of the item's destination. */
async function attempt(item: WaitingItem, options: OutboxPolicy): Promise<LaneOutcome> {
  const row = await read((db) => getOutboxItem(db, item.id));
  if (!row || row.sentAt !== null || row.gaveUpAt !== null) {
    waiting.remove(item);
    return "unknown";
  }
  const deliverer = delivererOf(row.kind)!;
  const number = row.attempts + 1;
  try {
    await withDeadline(deliverer.deliver(row.payload, { itemId: row.id, number, createdAt: row.createdAt }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const outcome: LaneOutcome = error instanceof GiveUp || (error instanceof RetryLater && error.destinationAnswered) ? "unknown" : "failed";
    const maxAttempts = deliverer.maxAttempts ?? options.maxAttempts;
    if (error instanceof GiveUp || number >= maxAttempts) {
      await giveUp(row, number, message, deliverer);
      waiting.remove(item);
      return outcome;
    }
    const delay = backoffSeconds(number, options);
    const nextAttemptAt = secondsFromNow(delay);
    await writeUpkeep((tx) => markOutboxFailed(tx, row.id, number, nextAttemptAt, message));
    item.nextAttemptAt = nextAttemptAt;
    log.warn(`outbox: item ${row.id} (${row.kind}) failed on try ${number}, next in ${delay} s: ${message}`);
    return outcome;
  }
  await markSent(row.id, number);
  waiting.remove(item);
  const line = `outbox: item ${row.id} (${row.kind}) delivered on try ${number}`;
  if (deliverer.quiet) log.debug(line);
  else log.info(line);
  return "answered";
}

/**
 * Deliveries that end in the same turn of the event loop are marked sent in one write: a burst
 * of a thousand pushes is one commit, not a thousand (each its own share of the database's
 * log, which every send then pays for). Until the mark commits the item counts as under way,
 * so a crash meanwhile sends it again: at least once, as always.
 */
let sentMarks: Array<{ id: number; attempts: number; settle: (error?: unknown) => void }> = [];

function markSent(id: number, attempts: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    sentMarks.push({ id, attempts, settle: (error) => (error === undefined ? resolve() : reject(error)) });
    if (sentMarks.length === 1) setImmediate(writeSentMarks);
  });
}

async function writeSentMarks() {
  const marks = sentMarks;
  sentMarks = [];
  try {
    await writeUpkeep(async (tx) => {
      const at = nowSeconds();
      for (const mark of marks) await markOutboxSent(tx, mark.id, mark.attempts, at);
    });
    for (const mark of marks) mark.settle();
  } catch (error) {
    for (const mark of marks) mark.settle(error ?? new Error("the marks could not be written"));
  }
}

async function giveUp(item: OutboxRow, attempts: number, message: string, deliverer: Deliverer<OutboxKind> | undefined) {
  await writeUpkeep((tx) => markOutboxGivenUp(tx, item.id, attempts, nowSeconds(), message));
  log.warn(`outbox: gave up item ${item.id} (${item.kind}) after ${attempts} tries: ${message}`);
  try {
    await deliverer?.gaveUp?.(item.payload, message);
  } catch (error) {
    log.error(`outbox: gaveUp of item ${item.id} (${item.kind}) failed: ${(error as Error)?.stack ?? error}`);
  }
}

/**
 * A deliverer that never settles must not hold its lane for good: after this long its try
 * counts as failed (deliverers keep their own, shorter network timeouts).
 */
const DELIVERY_DEADLINE_MS = 5 * 60_000;

function withDeadline(delivery: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DELIVERY_DEADLINE_MS / 1000} s`)), DELIVERY_DEADLINE_MS);
  });
  return Promise.race([delivery, deadline]).finally(() => clearTimeout(timer));
}

/** Deletes items finished long ago; run by the job's sweep. */
export async function pruneOutbox() {
  await writeUpkeep((tx) => pruneFinishedOutbox(tx, nowSeconds() - KEEP_FINISHED_SECONDS));
}

/** For tests and tools: the stored state of one item. */
export const outboxItem = (id: number) => read((db) => getOutboxItem(db, id));
