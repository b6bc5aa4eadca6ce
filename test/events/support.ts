import { expect } from "bun:test";
import { queryServer } from "../helpers/channels";
import { editServerDatabase } from "../helpers/inProcess";
import { ok, type Person } from "../helpers/seed";
import type { TestServer } from "../helpers/server";

/** Helpers for event-queue tests: register, fetch, and replay events onto a snapshot. */

export type State = Record<string, any>;
export type Event = Record<string, any> & { id: number; type: string };

/** The sections these tests follow; the full set also holds other features' sections. */
export const OWN_SECTIONS = ["realm", "realm_user", "realm_bot", "realm_user_groups", "user_settings", "update_display_settings", "update_global_notifications"];

export async function register(person: Person, params: Record<string, unknown> = {}): Promise<State> {
  return ok(await person.api.post("/register", { fetch_event_types: OWN_SECTIONS, ...params }));
}

/** Everything queued after lastEventId, without waiting. */
export async function pending(person: Person, queueId: string, lastEventId = -1): Promise<Event[]> {
  return ok(await person.api.get("/events", { queue_id: queueId, last_event_id: lastEventId, dont_block: true })).events;
}

/** Events of the given types among what is queued (heartbeats and others left out). */
export async function pendingOf(person: Person, queueId: string, types: string[]): Promise<Event[]> {
  return (await pending(person, queueId)).filter((event) => types.includes(event.type));
}

/**
 * Changes realm settings straight in the database, for settings no endpoint changes yet.
 * Values are JSON; the server reads the realm row on every use. The settings column is JSON
 * text on SQLite and jsonb on PostgreSQL (where queryServer hands it over parsed).
 */
export function setRealmSettings(server: TestServer, settings: Record<string, unknown>) {
  const [row] = queryServer<{ settings: string | Record<string, unknown> }>(server, "SELECT settings FROM realms WHERE id = 1");
  const current = typeof row.settings === "string" ? JSON.parse(row.settings) : row.settings;
  editServerDatabase(server, "UPDATE realms SET settings = ? WHERE id = 1", JSON.stringify({ ...current, ...settings }));
}

export function systemGroupId(server: TestServer, name: string): number {
  return queryServer<{ id: number }>(server, "SELECT id FROM user_groups WHERE name = ?", name)[0].id;
}

const byId = (users: State[]) => [...users].sort((a, b) => a.user_id - b.user_id);

/**
 * What a client does with events, for the sections this feature keeps up to date: the
 * reference's apply_events, as the "events + old snapshot = new snapshot" tests need it.
 */
export function applyEvents(state: State, events: Event[]): State {
  const next = structuredClone(state);
  for (const { id: _id, ...event } of events) {
    if (event.type === "realm_user" && event.op === "add") {
      next.realm_users = byId([...next.realm_users.filter((user: State) => user.user_id !== event.person.user_id), event.person]);
    } else if (event.type === "realm_user" && event.op === "update") {
      const { user_id, new_email, ...changes } = event.person;
      for (const list of [next.realm_users, next.realm_non_active_users]) {
        const user = list.find((each: State) => each.user_id === user_id);
        if (user) Object.assign(user, changes, new_email === undefined ? {} : { email: new_email });
      }
      if (user_id === next.user_id) {
        if (changes.full_name !== undefined) next.full_name = changes.full_name;
        if (changes.role !== undefined) Object.assign(next, { is_owner: changes.role === 100, is_admin: changes.role <= 200, is_moderator: changes.role <= 300, is_guest: changes.role === 600 });
      }
      if (changes.is_active !== undefined) {
        const everyone = [...next.realm_users, ...next.realm_non_active_users];
        next.realm_users = byId(everyone.filter((user: State) => user.is_active));
        next.realm_non_active_users = byId(everyone.filter((user: State) => !user.is_active));
      }
      if (changes.role !== undefined) {
        const user = next.realm_users.find((each: State) => each.user_id === user_id);
        if (user) Object.assign(user, { is_owner: changes.role === 100, is_admin: changes.role <= 200, is_guest: changes.role === 600 });
      }
    } else if (event.type === "user_settings" && event.op === "update") {
      next.user_settings[event.property] = event.value;
    } else if (event.type === "update_display_settings" || event.type === "update_global_notifications") {
      next[event.setting_name ?? event.notification_name] = event.setting;
    }
  }
  return next;
}

/** The parts of a snapshot that events keep current (own-account permission flags are recomputed by clients). */
export function comparable(state: State) {
  const keys = ["realm_users", "realm_non_active_users", "full_name", "is_owner", "is_admin", "is_moderator", "is_guest", "user_settings"];
  return Object.fromEntries(keys.filter((key) => key in state).map((key) => [key, key.startsWith("realm_") ? byId(state[key]) : state[key]]));
}

export function expectSameState(replayed: State, fresh: State) {
  expect(comparable(replayed)).toEqual(comparable(fresh));
}

/** seedOrg hashes a password per person; on a busy machine that outlasts bun's 5 s hook limit. */
export const SEED_TIMEOUT_MS = 60_000;
