import { expect } from "bun:test";
import { ok, type Person } from "../../helpers/seed";
import { pending, type Event, type State } from "../support";
import { flutterEventProblems, flutterSnapshotProblems } from "../../clients/flutterContract";
import { applyEvents } from "./appliers";

/**
 * The reference's best event test: register, act, fetch the events, apply them to the earlier
 * snapshot, and compare with a fresh register. An action that produced no event, or a state
 * that did not change, fails: a replay that compares two equal snapshots proves nothing.
 */

type Params = Record<string, unknown>;

/** A current web client: every capability, subscribers, rendered content. */
export const MODERN: Params = {
  apply_markdown: true,
  client_gravatar: true,
  include_subscribers: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    linkifier_url_template: true,
    user_list_incomplete: true,
    include_deactivated_groups: true,
    archived_channels: true,
    empty_topic_name: true,
  },
};

/** An old client: no capabilities, so it gets the legacy forms the registry makes. */
export const LEGACY: Params = { apply_markdown: false, client_gravatar: false, include_subscribers: false, client_capabilities: {} };

/**
 * Server bugs a scenario knowingly steps around, each named, so the comparison hides nothing
 * else. None today ("channel max_message_id", joining or leaving a channel moving
 * max_message_id with no event, was fixed: it counts received messages, as the reference does).
 */
export type KnownBug = never;

export interface Observer {
  person: Person;
  /** Register parameters; MODERN when absent. */
  params?: Params;
  /** This person must not hear of the action at all: no event, no change. */
  unaware?: boolean;
}

/** Every event kind some replay applied, for the coverage check. */
export const SEEN_KINDS = new Set<string>();

/** Fields that cannot match between two registers, or that a client derives itself. */
const NOT_COMPARED = [
  "queue_id",
  "last_event_id",
  // Own permissions a client recomputes from its role and the groups it is in.
  "can_create_streams",
  "can_create_public_streams",
  "can_create_private_streams",
  "can_create_web_public_streams",
  "can_subscribe_other_users",
  "can_invite_others_to_realm",
  // Deprecated forms of newer settings, derived by the register and, as in the reference, kept
  // current by no event: clients read the settings they stand for.
  "realm_allow_edit_history",
  "realm_create_public_stream_policy",
  "realm_create_private_stream_policy",
  "realm_create_web_public_stream_policy",
  "realm_wildcard_mention_policy",
];

/** Lists whose order the register does not promise, put in one order. */
const ORDERED_BY: Record<string, (a: State, b: State) => number> = {
  drafts: (a, b) => a.id - b.id,
  saved_snippets: (a, b) => a.id - b.id,
  realm_user_groups: (a, b) => a.id - b.id,
  user_topics: (a, b) => a.stream_id - b.stream_id || (a.topic_name < b.topic_name ? -1 : 1),
};

export function comparable(state: State, bugs: KnownBug[] = []): State {
  const copy = structuredClone(state);
  void bugs;
  // When the server read presence data: no event keeps it, in the reference either.
  delete copy.server_timestamp;
  // The newest presence update ID: only polling the presence endpoint moves it, as in the reference.
  delete copy.presence_last_update_id;
  // With user_avatar_url_field_optional the server leaves deactivated people's avatar_url
  // out of a snapshot, while a client keeps the one it had: both are right.
  for (const user of copy.realm_non_active_users ?? []) delete user.avatar_url;
  for (const key of NOT_COMPARED) delete copy[key];
  for (const [key, order] of Object.entries(ORDERED_BY)) if (Array.isArray(copy[key])) copy[key].sort(order);
  return copy;
}

/**
 * A client with user_avatar_url_field_optional asks for the avatar of an active person its
 * state has none for (one reactivated since the snapshot left it out), as the API tells it to.
 */
async function fetchMissingAvatars(person: Person, params: Params, state: State) {
  for (const user of state.realm_users ?? []) {
    if ("avatar_url" in user) continue;
    user.avatar_url = ok(await person.api.get(`/users/${user.user_id}`, { client_gravatar: params.client_gravatar })).user.avatar_url;
  }
}

const realEvents = (events: Event[]) => events.filter((event) => event.type !== "heartbeat");

export interface Replayed {
  person: Person;
  events: Event[];
  snapshot: State;
  fresh: State;
}

/**
 * Registers every observer, runs `act`, then replays each observer's events on its snapshot
 * and expects the fresh state. `changes: false` for actions that change nobody's state
 * (typing): their events must still arrive, and leave the state as it was.
 */
export async function replay(observers: Observer[], act: () => Promise<unknown>, { changes = true, bugs = [] as KnownBug[] } = {}): Promise<Replayed[]> {
  const clients = await Promise.all(observers.map(async (observer) => ({ observer, params: observer.params ?? MODERN, snapshot: ok(await observer.person.api.post("/register", observer.params ?? MODERN)) as State })));
  await act();
  const results: Replayed[] = [];
  for (const { observer, params, snapshot } of clients) {
    const received = await pending(observer.person, snapshot.queue_id);
    const events = received.map(({ id: _id, ...event }) => event as Event);
    const label = `${observer.person.email} ${JSON.stringify(events.map((event) => event.op ? `${event.type} ${event.op}` : event.type))}`;
    if (observer.unaware) expect({ label, events: realEvents(events) }).toEqual({ label, events: [] });
    else expect(realEvents(events).length, `no event reached ${observer.person.email}`).toBeGreaterThan(0);
    // A modern client's events and state must also parse in the mobile app, unmodified.
    if (params === MODERN) {
      expect({ label, problems: received.flatMap(flutterEventProblems) }).toEqual({ label, problems: [] });
      expect({ label, problems: flutterSnapshotProblems(snapshot) }).toEqual({ label, problems: [] });
    }
    const replayed = applyEvents(snapshot, events, SEEN_KINDS, params.include_subscribers === true);
    await fetchMissingAvatars(observer.person, params, replayed);
    const fresh = ok(await observer.person.api.post("/register", params)) as State;
    if (process.env.REPLAY_DEBUG && !Bun.deepEquals(comparable(replayed, bugs), comparable(fresh, bugs))) console.log(label, JSON.stringify(events).slice(0, 1500));
    expect({ label, state: comparable(replayed, bugs) }).toEqual({ label, state: comparable(fresh, bugs) });
    if (changes && !observer.unaware) expect(comparable(fresh, bugs), `the action changed nothing ${observer.person.email} sees`).not.toEqual(comparable(snapshot, bugs));
    else expect(comparable(fresh, bugs)).toEqual(comparable(snapshot, bugs));
    results.push({ person: observer.person, events, snapshot, fresh });
  }
  return results;
}
