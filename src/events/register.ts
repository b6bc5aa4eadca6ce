import { getRealm } from "../db/realm";
import { dialect } from "../db/dialect";
import { read, writeUpkeep } from "../db/transaction";
import type { Reader } from "../db/types";
import { findUserById, type User } from "../db/users";
import { badRequest } from "../http/errors";
import { MAX_CHANNEL_DESCRIPTION_LENGTH, MAX_CHANNEL_NAME_LENGTH } from "../model/channelSettings";
import {
  MAX_MESSAGE_LENGTH,
  MAX_TOPIC_LENGTH,
  TYPING_STARTED_EXPIRY_PERIOD_MS,
  TYPING_STARTED_WAIT_PERIOD_MS,
  TYPING_STOPPED_WAIT_PERIOD_MS,
} from "../model/limits";
import { DEFAULT_PRESENCE_HISTORY_DAYS } from "../model/presence";
import { versionFields } from "../version";
import { checkEventNarrow } from "./eventNarrow";
import { createQueue, idleTimeoutSeconds, longpollTimeoutSeconds } from "./registry";
import { readCapabilities, type QueueSpec } from "./spec";
import { buildState, buildStateOpening } from "./state";
import type { StateContext } from "./state/context";

/** POST /register parameters (spec 4.19), as the route's schema decoded them. */
export interface RegisterParams {
  apply_markdown?: boolean;
  client_gravatar?: boolean;
  include_subscribers?: boolean;
  slim_presence?: boolean;
  presence_history_limit_days?: number;
  event_types?: string[];
  fetch_event_types?: string[];
  all_public_streams?: boolean;
  narrow?: string[][];
  client_capabilities?: Record<string, unknown>;
  /** Seconds, or "mobile"; as the route's schema let it through (text). */
  idle_queue_timeout?: string;
}

/**
 * idle_queue_timeout (zulip-flutter sends "mobile"; other clients a number of seconds): how long
 * the queue may sit unused. 0 is the server's default, as in the reference server.
 */
function requestedIdleTimeout(value: string | undefined): number | "mobile" | undefined {
  if (value === undefined) return undefined;
  // Plain text as zulip-flutter sends it, or JSON-encoded ("\"mobile\"") as some clients encode every value.
  const text = value.trim().replace(/^"(.*)"$/, "$1");
  if (text === "mobile") return text;
  if (!/^\d{1,15}$/.test(text)) throw badRequest("Invalid idle_queue_timeout: expected a number of seconds or \"mobile\"");
  return Number(text);
}

function queueSpec(params: RegisterParams, authenticated: boolean): QueueSpec {
  const idleTimeout = idleTimeoutSeconds(requestedIdleTimeout(params.idle_queue_timeout));
  return {
    eventTypes: params.event_types ?? null,
    narrow: checkEventNarrow(params.narrow ?? []),
    allPublicStreams: params.all_public_streams ?? false,
    applyMarkdown: params.apply_markdown ?? false,
    clientGravatar: params.client_gravatar ?? authenticated,
    slimPresence: params.slim_presence ?? false,
    capabilities: readCapabilities(params.client_capabilities),
    ...(idleTimeout !== undefined && { idleTimeoutSeconds: idleTimeout }),
  };
}

function stateContext(params: RegisterParams, spec: QueueSpec): Omit<StateContext, "realm"> {
  const days = params.presence_history_limit_days ?? DEFAULT_PRESENCE_HISTORY_DAYS;
  return { spec, includeSubscribers: params.include_subscribers ?? false, presenceHistoryLimitDays: days };
}

/** Whether the organization lets unauthenticated clients register (spec 5.2, enable_spectator_access). */
export const spectatorsAllowed = () => read(async (db) => (await getRealm(db)).settings.enable_spectator_access);

/** Fields register always returns: what other endpoints refer to by name (spec 4.19). */
function alwaysPresent(emptyTopicDisplayName: string) {
  return {
    ...versionFields(),
    event_queue_longpoll_timeout_seconds: longpollTimeoutSeconds(),
    max_message_length: MAX_MESSAGE_LENGTH,
    max_topic_length: MAX_TOPIC_LENGTH,
    max_stream_name_length: MAX_CHANNEL_NAME_LENGTH,
    max_stream_description_length: MAX_CHANNEL_DESCRIPTION_LENGTH,
    realm_empty_topic_display_name: emptyTopicDisplayName,
    server_typing_started_wait_period_milliseconds: TYPING_STARTED_WAIT_PERIOD_MS,
    server_typing_stopped_wait_period_milliseconds: TYPING_STOPPED_WAIT_PERIOD_MS,
    server_typing_started_expiry_period_milliseconds: TYPING_STARTED_EXPIRY_PERIOD_MS,
  };
}

/**
 * POST /register: a queue and the state it continues from. `user` is null for a spectator,
 * whom the route admits only when the organization allows public access; a spectator gets
 * state but no queue.
 */
export async function register(user: User | null, params: RegisterParams) {
  if (user === null) {
    if (params.client_gravatar) throw badRequest("Invalid 'client_gravatar' parameter for anonymous request");
    if (params.include_subscribers) throw badRequest("Invalid 'include_subscribers' parameter for anonymous request");
  }
  const spec = queueSpec(params, user !== null);
  const context = stateContext(params, spec);
  const fetchEventTypes = params.fetch_event_types ?? params.event_types ?? null;
  if (user === null) {
    const realm = await read((db) => getRealm(db));
    return { queue_id: null, last_event_id: -1, ...alwaysPresent(realm.settings.empty_topic_display_name), ...(await buildState({ ...context, realm }, fetchEventTypes)) };
  }
  // No event may fall between the snapshot and the queue, and none should be in both. A write
  // publishes after its COMMIT, in its own turn, to the queues that exist when it publishes
  // (events name users; the registry finds their queues then). The queue is therefore made in
  // the first read, right before its first statement, which takes the read's snapshot; on
  // PostgreSQL, where a COMMIT and its publishing are apart by a round trip, that read begins
  // in the writer's turn (readAtQuietMoment). Every change published before the queue existed
  // is then in that snapshot, and every change the snapshot lacks is published to the queue:
  // the first slice's sections see exactly the changes the queue does not get. The state is
  // read a slice at a time (state/index.ts): for a large organization it takes a while, and a
  // change committed between two slices is at worst both in a later slice's sections and in
  // the queue (seen twice, which clients tolerate, as they do with the reference), never missed.
  let queueId = "";
  let emptyTopicDisplayName = "";
  let snapshotTaken = () => {};
  const state = await buildStateOpening(
    {
      read: (reads) =>
        readAtQuietMoment((db, taken) => {
          snapshotTaken = taken;
          return reads(db);
        }),
      async open(db) {
        queueId = createQueue(user.id, spec);
        // Always a statement (no cached copy): the snapshot is taken by now.
        const viewer = (await findUserById(db, user.id)) ?? user;
        snapshotTaken();
        const realm = await getRealm(db);
        emptyTopicDisplayName = realm.settings.empty_topic_display_name;
        return { ...context, realm, viewer };
      },
    },
    fetchEventTypes,
  );
  return { queue_id: queueId, last_event_id: -1, ...alwaysPresent(emptyTopicDisplayName), ...state };
}

/**
 * Runs `reads` in a read() whose snapshot is taken while no write is between its COMMIT and its
 * publishing. SQLite: any moment, since a COMMIT and the delivery of its events (or the choice of
 * the queues they go to, when they wait for lookups) happen in one go, as does a first statement
 * after the code before it. PostgreSQL: the read begins inside the writer's turn (an upkeep
 * write, which changes nothing and leaves the cached copies be), which holds every other write
 * of this process (and, by the writers' advisory lock, of other nodes); `reads` calls `taken`
 * once its first statement has answered, and the turn is given back at once. (In a cluster a
 * node's events reach queues through the event log in their own time, so there a change may
 * still be both in the state and in the queue.)
 */
function readAtQuietMoment<T>(reads: (db: Reader, taken: () => void) => Promise<T>): Promise<T> {
  if (dialect() !== "postgres") return read((db) => reads(db, () => {}));
  return new Promise<T>((resolve, reject) => {
    writeUpkeep(async () => {
      let taken = () => {};
      const snapshot = new Promise<void>((resolve) => (taken = resolve));
      const reading = read((db) => reads(db, taken));
      reading.then(resolve, reject);
      await Promise.race([snapshot, reading.catch(() => {})]);
    }).catch(reject);
  });
}
