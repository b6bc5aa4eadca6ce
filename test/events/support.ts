import { Database } from "bun:sqlite";
import { join } from "node:path";
import { expect } from "bun:test";
import { ok, type Person } from "../helpers/seed";
import type { TestServer } from "../helpers/server";
import { EXTERNAL_CHANGE_DELAY_MS } from "../../src/db/caches";

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
 * Values are JSON; the server reads the realm row on every use.
 */
export function setRealmSettings(server: TestServer, settings: Record<string, unknown>) {
  withDatabase(server, (db) => {
    const row = db.query("SELECT settings FROM realms WHERE id = 1").get() as { settings: string };
    db.run("UPDATE realms SET settings = ? WHERE id = 1", [JSON.stringify({ ...JSON.parse(row.settings), ...settings })]);
  });
}

export function withDatabase<T>(server: TestServer, use: (db: Database) => T): T {
  const db = new Database(join(server.dataDir, "parley.db"));
  db.run("PRAGMA busy_timeout = 5000");
  try {
    const result = use(db);
    // The server notices other connections' changes within this delay.
    if ((db.query("SELECT total_changes() AS n").get() as { n: number }).n > 0) Bun.sleepSync(EXTERNAL_CHANGE_DELAY_MS + 20);
    return result;
  } finally {
    db.close();
  }
}

export function systemGroupId(server: TestServer, name: string): number {
  return withDatabase(server, (db) => (db.query("SELECT id FROM user_groups WHERE name = ?").get(name) as { id: number }).id);
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
