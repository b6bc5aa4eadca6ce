import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { setRealmSetting, systemGroupId } from "../helpers/channels";
import { type Org, type Person, ok, seedOrg } from "../helpers/seed";
import { SEED_TIMEOUT_MS, type Event, type State, pendingOf, register } from "./support";

/** user_status: the snapshot, and events to everyone who may see the user (spec 2.5, 4.10). */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const SECTIONS = { fetch_event_types: ["user_status", "user_settings"] };
const setStatus = (person: Person, params: Record<string, unknown>) => person.api.post("/users/me/status", params);
const withoutIds = (events: Event[]) => events.map(({ id: _id, ...event }) => event);

/** The reference's apply_events for user_status: passed fields replace, empty ones clear. */
function applyStatusEvents(state: State, events: Event[]): State {
  const statuses: Record<string, State> = structuredClone(state.user_status);
  for (const { id: _id, type: _type, user_id, ...changes } of events) {
    const status = { ...statuses[user_id] };
    if (changes.away !== undefined) {
      if (changes.away) status.away = true;
      else delete status.away;
    }
    if (changes.status_text !== undefined) {
      if (changes.status_text) status.status_text = changes.status_text;
      else delete status.status_text;
    }
    if (changes.emoji_name !== undefined) {
      delete status.emoji_name, delete status.emoji_code, delete status.reaction_type;
      if (changes.emoji_name) Object.assign(status, { emoji_name: changes.emoji_name, emoji_code: changes.emoji_code, reaction_type: changes.reaction_type });
    }
    if (Object.keys(status).length > 0) statuses[user_id] = status;
    else delete statuses[user_id];
  }
  return { ...state, user_status: statuses };
}

describe("user_status", () => {
  test("events carry only what was passed; replaying them onto the snapshot gives a fresh one", async () => {
    ok(await setStatus(org.member2, { status_text: "set before" }));
    const before = await register(org.admin, SECTIONS);
    expect(before.user_status[String(org.member2.id)]).toEqual({ status_text: "set before" });

    ok(await setStatus(org.member, { status_text: "in a meeting" }));
    ok(await setStatus(org.member, { emoji_name: "car" }));
    ok(await setStatus(org.member, { away: true }));
    ok(await setStatus(org.member2, { status_text: "", emoji_name: "" }));
    ok(await setStatus(org.member, { away: false, status_text: "" }));

    const events = await pendingOf(org.admin, before.queue_id, ["user_status"]);
    expect(withoutIds(events)).toEqual([
      { type: "user_status", user_id: org.member.id, status_text: "in a meeting" },
      { type: "user_status", user_id: org.member.id, emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" },
      { type: "user_status", user_id: org.member.id, away: true },
      { type: "user_status", user_id: org.member2.id, status_text: "", emoji_name: "", emoji_code: "", reaction_type: "unicode_emoji" },
      { type: "user_status", user_id: org.member.id, away: false, status_text: "" },
    ]);
    const fresh = await register(org.admin, SECTIONS);
    expect(applyStatusEvents(before, events).user_status).toEqual(fresh.user_status);
    expect(fresh.user_status[String(org.member.id)]).toEqual({ emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" });
    expect(fresh.user_status[String(org.member2.id)]).toBeUndefined();
  });

  test("everyone, the user included, hears of the change", async () => {
    const people = [org.owner, org.admin, org.moderator, org.member, org.member2, org.guest, org.bot];
    const queues = await Promise.all(people.map((person) => register(person, SECTIONS)));
    ok(await setStatus(org.member, { status_text: "everyone knows" }));
    for (const [index, person] of people.entries()) {
      expect(withoutIds(await pendingOf(person, queues[index].queue_id, ["user_status"]))).toEqual([{ type: "user_status", user_id: org.member.id, status_text: "everyone knows" }]);
    }
  });

  test("away changes presence_enabled, which only the user's own clients are told", async () => {
    const own = await register(org.moderator, SECTIONS);
    const other = await register(org.member, SECTIONS);
    ok(await setStatus(org.moderator, { away: true }));
    ok(await setStatus(org.moderator, { away: true }));
    ok(await setStatus(org.moderator, { away: false }));
    const settings = await pendingOf(org.moderator, own.queue_id, ["user_settings"]);
    // The second away: true changed nothing, so it announced no setting change.
    expect(withoutIds(settings)).toEqual([
      { type: "user_settings", op: "update", property: "presence_enabled", value: false },
      { type: "user_settings", op: "update", property: "presence_enabled", value: true },
    ]);
    expect(await pendingOf(org.member, other.queue_id, ["user_settings"])).toEqual([]);
    expect(await pendingOf(org.member, other.queue_id, ["user_status"])).toHaveLength(3);
  });

  test("a refused change sends nothing", async () => {
    const queue = await register(org.admin, SECTIONS);
    expect((await setStatus(org.member, {})).status).toBe(400);
    expect((await setStatus(org.member, { status_text: "x".repeat(61) })).status).toBe(400);
    expect((await setStatus(org.member, { emoji_name: "no_such_emoji_here" })).status).toBe(400);
    expect(await pendingOf(org.admin, queue.queue_id, ["user_status", "user_settings"])).toEqual([]);
  });

  describe("when guests may not see everyone", () => {
    beforeAll(() => setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:members")));
    afterAll(() => setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:everyone")));

    test("a guest is neither shown nor told the status of users they may not see", async () => {
      ok(await setStatus(org.member, { status_text: "members only" }));
      const guest = await register(org.guest, SECTIONS);
      expect(guest.user_status[String(org.member.id)]).toBeUndefined();
      ok(await setStatus(org.member, { status_text: "still members only" }));
      ok(await setStatus(org.guest, { status_text: "guest here" }));
      expect(withoutIds(await pendingOf(org.guest, guest.queue_id, ["user_status"]))).toEqual([{ type: "user_status", user_id: org.guest.id, status_text: "guest here" }]);
      expect((await register(org.guest, SECTIONS)).user_status[String(org.guest.id)]).toEqual({ status_text: "guest here" });
    });
  });
});
