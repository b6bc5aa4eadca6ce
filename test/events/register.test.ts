import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, seedOrg, type Org } from "../helpers/seed";
import { SEED_TIMEOUT_MS, register, setRealmSettings, systemGroupId, type State } from "./support";
import { editServerDatabase } from "../helpers/inProcess";

let org: Org;

beforeAll(async () => {
  org = await seedOrg({ env: { PARLEY_HEARTBEAT_SECONDS: "45" } });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const ALWAYS_PRESENT = {
  max_message_length: 10000,
  max_topic_length: 60,
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  realm_empty_topic_display_name: "general chat",
  server_typing_started_wait_period_milliseconds: 10000,
  server_typing_stopped_wait_period_milliseconds: 5000,
  server_typing_started_expiry_period_milliseconds: 15000,
  // Heartbeat (45 s here) plus a margin.
  event_queue_longpoll_timeout_seconds: 75,
  last_event_id: -1,
};

describe("POST /register: the response", () => {
  test("always carries the queue, versions, limits and typing periods, whatever was fetched", async () => {
    for (const fetch_event_types of [[], ["nonsense"], ["realm_user"]]) {
      const state = await register(org.member, { fetch_event_types });
      expect(state).toMatchObject(ALWAYS_PRESENT);
      expect(state.queue_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(state.svc_feature_level).toBe(state.zulip_feature_level);
      expect(state.svc_version).toBe(state.zulip_version);
      expect(state.svc_merge_base).toBe(state.zulip_merge_base);
    }
  });

  test("fetch_event_types picks the sections; unknown names are ignored", async () => {
    const users = await register(org.member, { fetch_event_types: ["realm_user", "nonsense"] });
    expect(users.realm_users.length).toBeGreaterThan(5);
    expect(users.realm_name).toBeUndefined();
    expect(users.user_settings).toBeUndefined();
    const nothing = await register(org.member, { fetch_event_types: ["nonsense"] });
    expect(Object.keys(nothing).sort()).toEqual(Object.keys(await register(org.member, { fetch_event_types: [] })).sort());
    expect(nothing.realm_users).toBeUndefined();
  });

  test("event_types chooses the sections when fetch_event_types is absent, and fetch_event_types wins when both are given", async () => {
    const byEventTypes = ok(await org.member.api.post("/register", { event_types: ["user_settings"] }));
    expect(byEventTypes.user_settings).toBeDefined();
    expect(byEventTypes.realm_users).toBeUndefined();
    const both = ok(await org.member.api.post("/register", { event_types: ["user_settings"], fetch_event_types: ["realm_bot"] }));
    expect(both.realm_bots).toBeDefined();
    expect(both.user_settings).toBeUndefined();
  });

  test("the realm section: organization, settings as realm_* and group settings as group IDs", async () => {
    const state = await register(org.member, { fetch_event_types: ["realm"] });
    expect(state).toMatchObject({
      realm_name: "Test Org",
      realm_mandatory_topics: false,
      realm_enable_spectator_access: false,
      realm_message_retention_days: -1,
      realm_new_stream_announcements_stream_id: -1,
      realm_can_access_all_users_group: systemGroupId(org.server, "role:everyone"),
      realm_can_create_bots_group: systemGroupId(org.server, "role:members"),
    });
    expect(state.realm_url).toBe(state.realm_uri);
    expect(typeof state.server_generation).toBe("number");
  });

  test("the realm_user section: everyone, the caller's account and permissions, system bots apart", async () => {
    const state = await register(org.guest, { fetch_event_types: ["realm_user"] });
    const ids = state.realm_users.map((user: { user_id: number }) => user.user_id);
    for (const person of [org.owner, org.admin, org.member, org.guest, org.bot]) expect(ids).toContain(person.id);
    expect(state.realm_non_active_users).toEqual([]);
    expect(state.cross_realm_bots.map((bot: { full_name: string }) => bot.full_name)).toEqual(["Notification Bot"]);
    expect(state.cross_realm_bots[0].is_system_bot).toBe(true);
    expect(ids).not.toContain(state.cross_realm_bots[0].user_id);
    expect(state).toMatchObject({ user_id: org.guest.id, email: org.guest.email, full_name: "Gus Guest", is_guest: true, is_admin: false, is_owner: false, is_moderator: false });
    expect(state).toMatchObject({ can_create_streams: false, can_subscribe_other_users: false, can_invite_others_to_realm: false, can_create_web_public_streams: false });
    const owner = await register(org.owner, { fetch_event_types: ["realm_user"] });
    expect(owner).toMatchObject({ is_owner: true, is_admin: true, is_moderator: true, is_guest: false, can_create_public_streams: true, can_create_private_streams: true });
  });

  test("client_gravatar: on by default, so Gravatar URLs are left to the client; off sends them", async () => {
    const member = (state: State) => (state.realm_users as Array<{ user_id: number; avatar_url: string | null }>).find((user) => user.user_id === org.member2.id)!;
    expect(member(await register(org.member, { fetch_event_types: ["realm_user"] })).avatar_url).toBeNull();
    expect(member(await register(org.member, { fetch_event_types: ["realm_user"], client_gravatar: true })).avatar_url).toBeNull();
    expect(member(await register(org.member, { fetch_event_types: ["realm_user"], client_gravatar: false })).avatar_url).toContain("gravatar.com");
  });

  test("the realm_bot section: a member's own bots; an administrator's all bots; nobody else's", async () => {
    const ownBots = (await register(org.member, { fetch_event_types: ["realm_bot"] })).realm_bots;
    expect(ownBots.map((bot: { user_id: number }) => bot.user_id)).toEqual([org.bot.id]);
    expect(ownBots[0]).toMatchObject({ api_key: org.bot.apiKey, owner_id: org.member.id, is_active: true });
    expect((await register(org.admin, { fetch_event_types: ["realm_bot"] })).realm_bots.map((bot: { user_id: number }) => bot.user_id)).toEqual([org.bot.id]);
    expect((await register(org.member2, { fetch_event_types: ["realm_bot"] })).realm_bots).toEqual([]);
  });

  test("the user_settings section, with the legacy top-level fields only for clients without user_settings_object", async () => {
    const legacy = await register(org.member);
    expect(legacy.user_settings).toMatchObject({ enter_sends: false, emojiset: "google", timezone: "" });
    expect(legacy.user_settings.emojiset_choices.map((choice: { key: string }) => choice.key)).toContain("google");
    expect(legacy).toMatchObject({ enter_sends: false, emojiset: "google", enable_sounds: true, twenty_four_hour_time: false });
    expect(legacy.available_notification_sounds).toContain("zulip");
    const modern = await register(org.member, { client_capabilities: { user_settings_object: true } });
    expect(modern.user_settings).toEqual(legacy.user_settings);
    for (const field of ["enter_sends", "emojiset", "enable_sounds", "emojiset_choices", "available_notification_sounds"]) expect(modern[field]).toBeUndefined();
  });

  test("realm_user_groups: system groups; deactivated groups only with include_deactivated_groups", async () => {
    editServerDatabase(org.server, "INSERT INTO user_groups (name, description, deactivated) VALUES ('retired', 'gone', true), ('designers', 'live', false)");
    const names = (state: State) => (state.realm_user_groups as Array<{ name: string }>).map((group) => group.name);
    const plain = await register(org.member, { fetch_event_types: ["realm_user_groups"] });
    expect(names(plain)).toEqual(expect.arrayContaining(["role:everyone", "role:members", "role:owners", "designers"]));
    expect(names(plain)).not.toContain("retired");
    const withDeactivated = await register(org.member, { fetch_event_types: ["realm_user_groups"], client_capabilities: { include_deactivated_groups: true } });
    expect(names(withDeactivated)).toContain("retired");
    const owners = plain.realm_user_groups.find((group: { name: string }) => group.name === "role:owners");
    expect(owners).toMatchObject({ is_system_group: true, deactivated: false, members: [org.owner.id] });
  });

  test("parameters with no data behind them yet are accepted; unknown ones are reported", async () => {
    const state = ok(
      await org.member.api.post("/register", { fetch_event_types: [], apply_markdown: true, include_subscribers: true, slim_presence: true, presence_history_limit_days: 365, all_public_streams: true, narrow: [["is", "dm"]], dance: "yes" }),
    );
    expect(state.ignored_parameters_unsupported).toEqual(["dance"]);
  });
});

describe("POST /register: bad input", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["event_types that is not JSON", { event_types: "[message" }, "event_types"],
    ["event_types that is not a list of strings", { event_types: [1, 2] }, "event_types"],
    ["fetch_event_types that is an object", { fetch_event_types: { a: 1 } }, "fetch_event_types"],
    ["a boolean that is not one", { apply_markdown: "maybe" }, "apply_markdown"],
    ["client_capabilities with a non-boolean", { client_capabilities: { user_settings_object: "yes" } }, "client_capabilities"],
    ["client_capabilities that is a list", { client_capabilities: [1] }, "client_capabilities"],
    ["a narrow term of three strings", { narrow: [["is", "dm", "x"]] }, "narrow"],
    ["a negative presence_history_limit_days", { presence_history_limit_days: -1 }, "presence_history_limit_days"],
    ["a fractional presence_history_limit_days", { presence_history_limit_days: 1.5 }, "presence_history_limit_days"],
    ["a huge event type", { event_types: ["x".repeat(5000)] }, "event_types"],
  ];
  for (const [name, params, parameter] of cases) {
    test(`${name} is a BAD_REQUEST naming ${parameter}`, async () => {
      const response = await org.member.api.post("/register", params);
      expectError(response, "BAD_REQUEST", 400);
      expect(response.body.msg).toContain(parameter);
    });
  }

  test("an unsupported narrow operator is refused by name", async () => {
    const response = await org.member.api.post("/register", { narrow: [["search", "castle"]] });
    expectError(response, "BAD_REQUEST", 400);
    expect(response.body.msg).toBe("Operator search not supported.");
  });
});

describe("POST /register without credentials", () => {
  test("is refused while the organization does not allow public access", async () => {
    expectError(await org.anon.post("/register", {}), "UNAUTHORIZED", 401);
  });

  test("with public access on, gives state without a queue; client_gravatar or include_subscribers true are errors", async () => {
    setRealmSettings(org.server, { enable_spectator_access: true });
    try {
      const state = ok(await org.anon.post("/register", {}));
      expect(state).toMatchObject({ ...ALWAYS_PRESENT, queue_id: null, realm_name: "Test Org", realm_enable_spectator_access: true });
      expect(state.realm_users).toBeUndefined();
      expect(state.user_settings).toBeUndefined();
      for (const parameter of ["client_gravatar", "include_subscribers"]) {
        const response = await org.anon.post("/register", { [parameter]: true });
        expectError(response, "BAD_REQUEST", 400);
        expect(response.body.msg).toBe(`Invalid '${parameter}' parameter for anonymous request`);
      }
      ok(await org.anon.post("/register", { client_gravatar: false, include_subscribers: false }));
      expectError(await org.anon.as(org.member.email, "wrong-key").post("/register", {}), "INVALID_API_KEY", 401);
    } finally {
      setRealmSettings(org.server, { enable_spectator_access: false });
    }
  });
});

test("the full set of sections registers (every feature's section builds)", async () => {
  const state = ok(await org.member.api.post("/register", {}));
  for (const field of ["realm_users", "realm_bots", "realm_user_groups", "user_settings", "realm_name"]) expect(state[field]).toBeDefined();
});
