/**
 * THE event-queue registry: every queue lives here, in memory, and nothing outside this module
 * touches one. It creates queues (register), looks them up for their owner, appends what
 * actions publish after COMMIT, answers long-polls, sends heartbeats, collects idle queues,
 * bounds how many queues a user and the server hold (the longest-idle queue makes room,
 * events/activityOrder.ts), and carries queues across a graceful restart (events/persistence.ts).
 *
 * How a feature adds its events (channels, messages, ... all follow this path):
 *  1. Shape: an interface per event in events/kinds/<feature>.ts, its union added to AnyEvent
 *     in events/types.ts.
 *  2. Emit: inside the action's write(), `tx.emit(event, userIds)` naming exactly the users who
 *     may know. The registry delivers after COMMIT, nothing on rollback. Message events also pass
 *     DeliveryOptions: flagsByUser, publicChannel (reaches all_public_streams queues), localEcho.
 *  3. Per-client shape: if a capability or register parameter changes what a client gets, the
 *     rule goes in events/filters.ts (one case per event type), not in the action.
 *  4. Snapshot: a file events/state/<feature>.ts exporting a section builder, plus one line in
 *     events/state/index.ts under its fetch_event_types name.
 *  5. Test: register, act over HTTP, apply the fetched events to the snapshot and compare it
 *     with a fresh register (test/events/).
 */
import type { Emitted } from "../db/types";
import { ApiError } from "../http/errors";
import { log } from "../log";
import { versionFields } from "../version";
import { ActivityOrder, longestIdle } from "./activityOrder";
import { addLookups, eventLookups, eventsForQueue, type Lookups } from "./filters";
import { filterContext, lookUp, NOTHING_LOOKED_UP, type LookedUp } from "./filterState";
import { loadQueues, saveQueues } from "./persistence";
import { EventQueue, type StoredEvent, type Waiter } from "./queue";
import type { QueueSpec } from "./spec";

export interface RegistryConfig {
  heartbeatSeconds: number;
  /** The idle lifetime of a queue whose client did not ask for one (idle_queue_timeout). */
  queueTimeoutSeconds: number;
  /** The longest idle lifetime a client may ask for, and what "mobile" asks for. */
  maxQueueTimeoutSeconds: number;
  /** Unacknowledged events a queue may hold; past it the queue is dropped (a dead client). */
  maxEventsPerQueue: number;
  /** Characters of JSON those events may make; past it the queue is dropped as well. */
  maxEventCharsPerQueue: number;
  /** Queues one user may hold; registering one more drops that user's longest-idle queue. */
  maxQueuesPerUser: number;
  /** Queues the server may hold; registering one more drops the longest-idle queue of anyone. */
  maxQueuesTotal: number;
  /** Where queues are kept across a graceful restart; null keeps them in memory only. */
  dataDir: string | null;
}

let config: RegistryConfig = { heartbeatSeconds: 60, queueTimeoutSeconds: 600, maxQueueTimeoutSeconds: 7 * 24 * 3600, maxEventsPerQueue: 10_000, maxEventCharsPerQueue: 32 * 1024 * 1024, maxQueuesPerUser: 50, maxQueuesTotal: 20_000, dataDir: null };
const queues = new Map<string, EventQueue>();
const queuesByUser = new Map<number, Set<EventQueue>>();
const publicStreamsQueues = new Set<EventQueue>();
/** Which queue has been idle longest, for the server-wide cap and garbage collection. */
const activity = new ActivityOrder();
/** How many queues have each idle timeout (ms): the shortest bounds how far collection looks. */
const queuesByTimeout = new Map<number, number>();
/** The next event ID, for all queues (see EventQueue). */
let nextEventId = 0;
/** Events actions published since this process started (one per emit, however many queues got it). */
let publishedSinceStart = 0;

const stamped = (event: StoredEvent["event"]): StoredEvent => ({ id: nextEventId++, event });

/** When this process started: reported as server_generation, in seconds. */
export const SERVER_GENERATION = Math.floor(Date.now() / 1000);

const heartbeatMs = () => Math.max(50, config.heartbeatSeconds * 1000);
const maxTimeoutSeconds = () => Math.max(config.queueTimeoutSeconds, config.maxQueueTimeoutSeconds);

/**
 * A queue's idle lifetime from what its client asked (register's idle_queue_timeout): nothing
 * or 0 is the server's default, "mobile" the longest allowed (a week by default, the reference
 * server's cap, so a phone asleep overnight keeps its queue), and a number of seconds is
 * honoured up to that cap. Returns undefined for the default, so the queue follows the
 * server's setting even across a restart that changed it.
 */
export function idleTimeoutSeconds(requested: number | "mobile" | undefined): number | undefined {
  if (requested === undefined || requested === 0) return undefined;
  return requested === "mobile" ? maxTimeoutSeconds() : Math.min(requested, maxTimeoutSeconds());
}

const timeoutMsOf = (queue: EventQueue) => Math.max(50, Math.min(queue.spec.idleTimeoutSeconds ?? config.queueTimeoutSeconds, maxTimeoutSeconds()) * 1000);

function shortestTimeoutMs(): number {
  let shortest = Infinity;
  for (const timeout of queuesByTimeout.keys()) shortest = Math.min(shortest, timeout);
  return shortest;
}

/** How long a client should let GET /events wait: comfortably above the heartbeat. */
export const longpollTimeoutSeconds = () => Math.ceil(config.heartbeatSeconds) + 30;

function addQueue(queue: EventQueue) {
  queues.set(queue.id, queue);
  queue.timeoutMs = timeoutMsOf(queue);
  queuesByTimeout.set(queue.timeoutMs, (queuesByTimeout.get(queue.timeoutMs) ?? 0) + 1);
  let own = queuesByUser.get(queue.userId);
  if (!own) queuesByUser.set(queue.userId, (own = new Set()));
  own.add(queue);
  if (queue.spec.allPublicStreams) publicStreamsQueues.add(queue);
  if (queue.waiter) activity.parked(queue);
  else activity.touched(queue);
}

const isRegistered = (queue: EventQueue) => queues.get(queue.id) === queue;

/** The client just used the queue (a fetch began or ended): it moves to the back of the line. */
function noteActivity(queue: EventQueue) {
  queue.lastActive = Date.now();
  if (!isRegistered(queue)) return;
  if (queue.waiter) activity.parked(queue);
  else activity.touched(queue);
}

function removeQueue(queue: EventQueue, reason: string) {
  if (!isRegistered(queue)) return;
  queues.delete(queue.id);
  const sameTimeout = (queuesByTimeout.get(queue.timeoutMs) ?? 1) - 1;
  if (sameTimeout > 0) queuesByTimeout.set(queue.timeoutMs, sameTimeout);
  else queuesByTimeout.delete(queue.timeoutMs);
  const own = queuesByUser.get(queue.userId);
  own?.delete(queue);
  if (own?.size === 0) queuesByUser.delete(queue.userId);
  publicStreamsQueues.delete(queue);
  activity.removed(queue);
  // After it left every index, so the waiter's release does not put it back in the order.
  queue.waiter?.settle(null);
  log.debug(`event queue ${queue.id} of user ${queue.userId} removed: ${reason}`);
}

/**
 * Loads the queues a graceful shutdown saved and tells each client the server restarted.
 * Idle collection runs as a job (jobs/queueCollection.ts) calling collectIdleQueues.
 */
export function startEventQueues(options: RegistryConfig) {
  config = options;
  if (config.dataDir) {
    const restart = { type: "restart" as const, ...versionFields(), server_generation: SERVER_GENERATION };
    const restored = loadQueues(config.dataDir, Date.now());
    nextEventId = Math.max(nextEventId, restored.nextEventId);
    // Oldest first, so the activity order holds, and so that if the caps were lowered since
    // the file was written, the queues that make room are the longest idle, as on register.
    // Stamped only when a queue gets it: a fresh start's first event keeps ID 0.
    const event = restored.queues.length > 0 ? stamped(restart) : undefined;
    for (const queue of restored.queues.sort((a, b) => a.lastActive - b.lastActive)) {
      queue.push(event!);
      makeRoomFor(queue.userId);
      addQueue(queue);
    }
  }
}

/** On graceful shutdown, after the server stopped taking requests: keep the queues for the next start. */
export function stopEventQueues() {
  for (const queue of queues.values()) queue.waiter?.settle([]);
  if (config.dataDir) saveQueues(config.dataDir, [...queues.values()], Date.now(), nextEventId);
}

/**
 * Walks the idle queues from the longest idle, and stops at the first idle for less than the
 * shortest timeout any queue has: every queue after it was active later still. Queues that
 * asked for longer lifetimes are stepped over until theirs runs out.
 */
export function collectIdleQueues() {
  const now = Date.now();
  const shortest = shortestTimeoutMs();
  const expired: EventQueue[] = [];
  for (const queue of activity.idleQueues()) {
    if (now - queue.lastActive <= shortest) break;
    if (queue.isIdle(now, queue.timeoutMs)) expired.push(queue);
  }
  for (const queue of expired) removeQueue(queue, "idle");
}

let lastCapWarning = 0;
let droppedSinceWarning = 0;

/** Drops queues, as idle collection does, until one more of this user's fits under both caps. */
function makeRoomFor(userId: number) {
  const perUser = Math.max(1, config.maxQueuesPerUser);
  const own = queuesByUser.get(userId);
  // Only this user's queues are looked at (at most the cap), never the whole server's.
  while (own && own.size >= perUser) removeQueue(longestIdle(own)!, `its user holds the most queues allowed (${perUser})`);
  const total = Math.max(1, config.maxQueuesTotal);
  while (queues.size >= total) {
    removeQueue(activity.victim()!, `the server holds the most queues allowed (${total})`);
    droppedSinceWarning++;
  }
  // One line a minute at most: a client registering in a loop must not flood the log.
  if (droppedSinceWarning > 0 && Date.now() - lastCapWarning > 60_000) {
    log.warn(`The server holds the most event queues allowed (${total}, PARLEY_MAX_QUEUES_TOTAL); dropped ${droppedSinceWarning} longest-idle queues to register new ones`);
    lastCapWarning = Date.now();
    droppedSinceWarning = 0;
  }
}

/**
 * A new queue for a user; its first event will have ID 0, so register reports last_event_id -1.
 * Past a cap the longest-idle queue goes (the user's own, or anyone's for the server-wide cap),
 * and its client gets BAD_EVENT_QUEUE_ID as after idle collection, then registers again.
 */
export function createQueue(userId: number, spec: QueueSpec): string {
  const queue = new EventQueue(queueIdPrefix + crypto.randomUUID(), userId, spec, Date.now());
  makeRoomFor(userId);
  addQueue(queue);
  return queue.id;
}

/** The answer for a queue that is not (or no longer) there, or not the caller's: the client registers again. */
export const badQueue = (queueId: string) => new ApiError("BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${queueId}`, { queue_id: queueId });

/** The caller's own live queue, or BAD_EVENT_QUEUE_ID: unknown, collected and others' queues look alike. */
function accessQueue(queueId: string, userId: number): EventQueue {
  const queue = queues.get(queueId);
  if (!queue || queue.userId !== userId) throw badQueue(queueId);
  // The sweep runs only every so often; an idle queue is gone from the moment it times out.
  if (queue.isIdle(Date.now(), queue.timeoutMs)) {
    removeQueue(queue, "idle");
    throw badQueue(queueId);
  }
  return queue;
}

/**
 * Whether the user has an event queue, so an event for them would be kept. Asked inside a
 * transaction, a "no" may not hold until its events are published: a client may register while
 * the transaction awaits its statements, and if that queue's state is read before the COMMIT,
 * an event the transaction left out for want of a queue is missed. (A queue registered after
 * the COMMIT, while publish awaits its reads, is safe: its state has the change.)
 */
export function hasEventQueue(userId: number): boolean {
  // In a cluster the user's queues may be on another node: assume they have one.
  return queueIdPrefix !== "" || queuesByUser.has(userId);
}

/** In a cluster, queue IDs begin with the node's name and a colon, so a request for one can be sent where it lives. */
let queueIdPrefix = "";

export function useQueueIdPrefix(prefix: string) {
  queueIdPrefix = prefix;
}

/**
 * A deactivated account's queues end at once, after the COMMIT that deactivated it: a parked
 * long-poll is answered BAD_EVENT_QUEUE_ID, and re-registering then fails authentication.
 */
export function dropQueuesOfUser(userId: number) {
  for (const queue of [...(queuesByUser.get(userId) ?? [])]) removeQueue(queue, "its user was deactivated");
}

export function deleteQueue(queueId: string, userId: number) {
  removeQueue(accessQueue(queueId, userId), "deleted by its client");
}

export interface FetchRequest {
  lastEventId?: number;
  dontBlock: boolean;
  /** The HTTP request's signal: a client that hangs up stops waiting. */
  signal?: AbortSignal;
}

/**
 * GET /events: acknowledges up to lastEventId, then answers at once if anything newer is
 * queued (or dont_block), else waits until an event arrives or the heartbeat is due.
 */
export function fetchEvents(queueId: string, userId: number, request: FetchRequest): Promise<StoredEvent[]> {
  const queue = accessQueue(queueId, userId);
  noteActivity(queue);
  if (request.lastEventId !== undefined) queue.acknowledge(request.lastEventId);
  if (queue.events.length > 0 || request.dontBlock) return Promise.resolve(queue.contents());
  // One long-poll per queue, as in the reference: a newer one answers the older with nothing.
  queue.waiter?.settle([]);
  return new Promise((resolve, reject) => {
    const heartbeat = setTimeout(() => {
      queue.push(stamped({ type: "heartbeat" }));
      waiter.settle(queue.contents());
    }, heartbeatMs());
    const release = () => {
      clearTimeout(heartbeat);
      if (queue.waiter === waiter) queue.waiter = null;
      noteActivity(queue);
    };
    const waiter: Waiter = {
      settle(events) {
        release();
        if (events) resolve(events);
        else reject(badQueue(queueId));
      },
    };
    queue.waiter = waiter;
    noteActivity(queue);
    // The listener is left in place once the poll is answered (removing it costs more on the
    // delivery path than it saves); an abort arriving later finds this waiter gone and does nothing.
    request.signal?.addEventListener("abort", () => queue.waiter === waiter && release(), { once: true });
  });
}

type Targets = Map<EventQueue, boolean>;

/** Each queue an event goes to, and whether through its user being addressed (vs all_public_streams). */
function targetsOf(addressed: Emitted): Targets {
  const targets: Targets = new Map();
  for (const userId of addressed.userIds) for (const queue of queuesByUser.get(userId) ?? []) targets.set(queue, true);
  if (addressed.options?.publicChannel) for (const queue of publicStreamsQueues) if (!targets.has(queue)) targets.set(queue, false);
  return targets;
}

/**
 * Called right after a write()'s COMMIT (the app wires it to db/transaction.ts) with everything
 * the transaction emitted. The transaction has committed, so a failure here is logged and never
 * thrown back at the action (the Promise, when there is one, never rejects).
 *
 * Filters run synchronously for each queue. The few that need current state (filters.ts,
 * FilterContext) have it read first, in one read(), and only when an event and a queue's
 * capabilities call for it: then publish returns a Promise, which db/transaction.ts awaits
 * while the writer still holds its turn, so events stay in commit order. Delivery itself runs
 * in one go after that, so no heartbeat can take an ID between two events of one delivery.
 * The queues of events that need lookups are found before the read, and those events go to
 * them: a queue registered meanwhile was registered after the COMMIT, so its state has the change.
 */
export function publish(batch: Emitted[]): void | Promise<void> {
  publishedSinceStart += batch.length;
  let wanted: Lookups | null = null;
  let pinned: Array<Targets | undefined> | null = null;
  for (let i = 0; i < batch.length; i++) {
    const asks = eventLookups(batch[i]);
    if (asks === null) continue;
    const targets = targetsOf(batch[i]);
    wanted ??= { emptyTopicDisplayName: false, userSettings: new Set(), userGroups: new Set() };
    for (const queue of targets.keys()) addLookups(asks, queue, wanted);
    (pinned ??= [])[i] = targets;
  }
  if (wanted === null || (!wanted.emptyTopicDisplayName && wanted.userSettings.size === 0 && wanted.userGroups.size === 0)) {
    return deliver(batch, pinned, NOTHING_LOOKED_UP);
  }
  return deliverAfterLookingUp(batch, pinned, wanted);
}

async function deliverAfterLookingUp(batch: Emitted[], pinned: Array<Targets | undefined> | null, wanted: Lookups) {
  let looked = NOTHING_LOOKED_UP;
  try {
    looked = await lookUp(wanted);
  } catch (error) {
    log.error(`reading what the event filters need failed (their deliveries fail): ${(error as Error)?.stack ?? error}`);
  }
  deliver(batch, pinned, looked);
}

/** Appends a committed transaction's events to their queues and wakes the queues' long-polls. */
function deliver(batch: Emitted[], pinned: Array<Targets | undefined> | null, looked: LookedUp) {
  const context = filterContext(looked);
  const touched = new Set<EventQueue>();
  for (let index = 0; index < batch.length; index++) {
    const addressed = batch[index];
    // The i-th event a queue gets of this one has ID first + i in every queue, and queues
    // given the same event object share one stored event (answer.ts writes it once for all).
    const first = nextEventId;
    const storedEvents = new Map<object, StoredEvent>();
    for (const [queue, recipient] of pinned?.[index] ?? targetsOf(addressed)) {
      try {
        const events = eventsForQueue(addressed, { queueId: queue.id, userId: queue.userId, spec: queue.spec, recipient }, context);
        nextEventId = Math.max(nextEventId, first + events.length);
        events.forEach((event, i) => {
          let stored = storedEvents.get(event);
          if (stored?.id !== first + i) storedEvents.set(event, (stored = { id: first + i, event }));
          queue.push(stored);
        });
        if (events.length > 0) touched.add(queue);
      } catch (error) {
        log.error(`delivering a ${addressed.event.type} event to queue ${queue.id} failed: ${(error as Error)?.stack ?? error}`);
      }
    }
  }
  // Woken once per transaction, so a client gets all of one change in one response.
  for (const queue of touched) {
    if (queue.events.length > config.maxEventsPerQueue) removeQueue(queue, `more than ${config.maxEventsPerQueue} unread events`);
    else if (queue.heldChars > config.maxEventCharsPerQueue) removeQueue(queue, `unread events of more than ${config.maxEventCharsPerQueue} characters`);
    else queue.waiter?.settle(queue.contents());
  }
}

export interface QueueFigures {
  queues: number;
  /** Long-polls parked now, waiting for an event or the heartbeat. */
  clients_polling: number;
  /** Events held in queues, not yet acknowledged by their clients. */
  events_pending: number;
  events_published: number;
}

/** How the queues stand, for the server status (reads/serverStatus.ts). Reads only; one pass over the queues. */
export function queueFigures(): QueueFigures {
  let polling = 0;
  let pending = 0;
  for (const queue of queues.values()) {
    if (queue.waiter) polling++;
    pending += queue.events.length;
  }
  return { queues: queues.size, clients_polling: polling, events_pending: pending, events_published: publishedSinceStart };
}
