import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createPerson, ok, seedOrg, type Org } from "../helpers/seed";
import { SEED_TIMEOUT_MS, applyEvents, expectSameState, pending, pendingOf, register, setRealmSettings, systemGroupId } from "./support";

/**
 * Capabilities whose effect shows over HTTP with what exists today, each both ways. The rest
 * (for events later features emit) are covered on the filter in filters.test.ts, and
 * user_settings_object in settings.test.ts.
 */

let org: Org;

beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

type User = { user_id: number; full_name: string; avatar_url?: string | null };
const userIn = (users: User[], id: number) => users.find((user) => user.user_id === id);

describe("user_list_incomplete, for a guest restricted by can_access_all_users_group", () => {
  beforeAll(() => setRealmSettings(org.server, { can_access_all_users_group: systemGroupId(org.server, "role:members") }));
  afterAll(() => setRealmSettings(org.server, { can_access_all_users_group: systemGroupId(org.server, "role:everyone") }));

  const INCOMPLETE = { client_capabilities: { user_list_incomplete: true } };

  test("without it, users the guest may not see are Unknown-user placeholders; the guest and bots are real", async () => {
    const users: User[] = (await register(org.guest, { fetch_event_types: ["realm_user"] })).realm_users;
    expect(userIn(users, org.owner.id)).toMatchObject({ full_name: "Unknown user", delivery_email: null, role: 400, is_admin: false });
    expect(userIn(users, org.member.id)?.full_name).toBe("Unknown user");
    expect(userIn(users, org.guest.id)?.full_name).toBe("Gus Guest");
    expect(userIn(users, org.bot.id)?.full_name).toBe("Helper Bot");
  });

  test("with it, those users are left out", async () => {
    const users: User[] = (await register(org.guest, { fetch_event_types: ["realm_user"], ...INCOMPLETE })).realm_users;
    expect(users.map((user) => user.user_id).sort()).toEqual([org.guest.id, org.bot.id].sort());
  });

  test("a new user reaches a restricted guest as a placeholder, or not at all with the capability; members see the real one", async () => {
    const guestPlain = await register(org.guest, { fetch_event_types: ["realm_user"] });
    const guestIncomplete = await register(org.guest, { fetch_event_types: ["realm_user"], ...INCOMPLETE });
    const member = await register(org.member, { fetch_event_types: ["realm_user"] });
    const newcomer = await createPerson(org.owner, org.anon, "Nina Newcomer");

    const plainEvents = await pendingOf(org.guest, guestPlain.queue_id, ["realm_user"]);
    expect(plainEvents).toEqual([{ type: "realm_user", op: "add", person: expect.objectContaining({ user_id: newcomer.id, full_name: "Unknown user" }), id: expect.any(Number) }]);
    expect("inaccessible_user" in plainEvents[0]).toBe(false);
    expect(await pendingOf(org.guest, guestIncomplete.queue_id, ["realm_user"])).toEqual([]);
    const memberEvents = await pendingOf(org.member, member.queue_id, ["realm_user"]);
    expect(memberEvents.map((event) => event.person.full_name)).toEqual(["Nina Newcomer"]);

    // Old snapshot + events = a fresh snapshot, for all three.
    for (const [person, before, params] of [
      [org.guest, guestPlain, {}],
      [org.guest, guestIncomplete, INCOMPLETE],
      [org.member, member, {}],
    ] as const) {
      const events = await pending(person, before.queue_id);
      expectSameState(applyEvents(before, events), await register(person, { fetch_event_types: ["realm_user"], ...params }));
    }
  });

  test("a restricted guest is not told of renames of users it cannot see", async () => {
    const guest = await register(org.guest, { fetch_event_types: [] });
    ok(await org.owner.api.patch(`/users/${org.member2.id}`, { full_name: "Max Hidden" }));
    ok(await org.bot.api.patch("/settings", { full_name: "Helper Visible" }));
    const names = (await pendingOf(org.guest, guest.queue_id, ["realm_user"])).map((event) => event.person);
    expect(names).toEqual([{ user_id: org.bot.id, full_name: "Helper Visible" }]);
  });
});

describe("client_gravatar on events", () => {
  test("a new user's Gravatar URL is left to clients that compute it, and sent to the others", async () => {
    const computing = await register(org.owner, { fetch_event_types: ["realm_user"], client_gravatar: true });
    const notComputing = await register(org.owner, { fetch_event_types: ["realm_user"], client_gravatar: false });
    const newcomer = await createPerson(org.owner, org.anon, "Gina Gravatar");
    const added = async (queueId: string) => (await pendingOf(org.owner, queueId, ["realm_user"])).find((event) => event.person.user_id === newcomer.id)!.person;
    expect((await added(computing.queue_id)).avatar_url).toBeNull();
    expect((await added(notComputing.queue_id)).avatar_url).toContain("gravatar.com");
    for (const [before, client_gravatar] of [
      [computing, true],
      [notComputing, false],
    ] as const) {
      const events = await pending(org.owner, before.queue_id);
      expectSameState(applyEvents(before, events), await register(org.owner, { fetch_event_types: ["realm_user"], client_gravatar }));
    }
  });
});

describe("user_avatar_url_field_optional", () => {
  test("with it, long-inactive (deactivated) users come without avatar_url; without it, with one", async () => {
    const gone = await createPerson(org.owner, org.anon, "Dana Departed");
    ok(await org.owner.api.delete(`/users/${gone.id}`));
    const params = { fetch_event_types: ["realm_user"], client_gravatar: false };
    const optional = await register(org.member, { ...params, client_capabilities: { user_avatar_url_field_optional: true } });
    const required = await register(org.member, params);
    expect(userIn(optional.realm_non_active_users, gone.id)).toBeDefined();
    expect("avatar_url" in userIn(optional.realm_non_active_users, gone.id)!).toBe(false);
    expect(userIn(required.realm_non_active_users, gone.id)!.avatar_url).toContain("gravatar.com");
    expect(userIn(optional.realm_users, org.member2.id)!.avatar_url).toContain("gravatar.com");
  });
});
