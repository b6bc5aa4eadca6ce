import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, systemGroupId } from "../helpers/channels";
import { postFrom } from "../helpers/fromAddress";
import { encodeParam } from "../helpers/client";
import { expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { SEED_TIMEOUT_MS, pendingOf, register, type Event, type State } from "../events/support";

/**
 * PATCH /realm: every setting Parley takes, its checks, who may change it, the event each
 * change sends everyone, and the register snapshot agreeing with it.
 */

let org: Org;

beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const realmOf = async (person: Person) => register(person, { fetch_event_types: ["realm", "realm_user_groups"] });
const queueOf = async (person: Person) => (await register(person, { fetch_event_types: ["realm", "realm_user_groups"] })).queue_id as string;
const group = (name: string) => systemGroupId(org.server, name);

/** What a client does with a realm event (the reference's apply_events). */
function applyRealmEvent(state: State, event: Event) {
  if (event.op === "update") state[`realm_${event.property}`] = event.value;
  else for (const [key, value] of Object.entries(event.data)) state[key === "max_file_upload_size_mib" ? key : `realm_${key}`] = value;
}

/** Changes settings as the owner, and checks the event everyone gets against a fresh register. */
async function change(params: Record<string, unknown>, as: Person = org.owner) {
  const [snapshot, queue] = await Promise.all([realmOf(org.member), queueOf(org.guest)]);
  const body = ok(await as.api.patch("/realm", params));
  const events = await pendingOf(org.member, snapshot.queue_id, ["realm"]);
  expect(events.length).toBeGreaterThan(0);
  // Guests hear of it too: everyone in the organization does.
  expect((await pendingOf(org.guest, queue, ["realm"])).map(({ id: _id, ...event }) => event)).toEqual(events.map(({ id: _id, ...event }) => event));
  const fresh = await realmOf(org.member);
  for (const event of events) applyRealmEvent(snapshot, event);
  for (const key of Object.keys(fresh).filter((key) => key.startsWith("realm_") || key === "max_file_upload_size_mib")) {
    // Group membership changes come as user_group events; the waiting period's test follows them.
    if (DERIVED.has(key) || key === "realm_user_groups") continue;
    expect({ key, value: snapshot[key] }).toEqual({ key, value: fresh[key] });
  }
  return { body, events, fresh };
}

/** Deprecated fields the register derives from newer settings, which no event keeps current (as in the reference). */
const DERIVED = new Set(["realm_allow_edit_history", "realm_create_public_stream_policy", "realm_create_private_stream_policy", "realm_create_web_public_stream_policy", "realm_wildcard_mention_policy"]);

describe("PATCH /realm: profile", () => {
  test("the name: an update event, and /server_settings shows it", async () => {
    const { body, events, fresh } = await change({ name: "  Renamed Org  " });
    expect(body).toEqual({ result: "success", msg: "", name: "updated" });
    expect(events.map(({ id: _id, ...event }) => event)).toEqual([{ type: "realm", op: "update", property: "name", value: "Renamed Org" }]);
    expect(fresh.realm_name).toBe("Renamed Org");
    expect(ok(await org.anon.get("/server_settings")).realm_name).toBe("Renamed Org");
  });

  test("the description: an update_dict event", async () => {
    const { events, fresh } = await change({ description: "We make **things**." });
    expect(events.map(({ id: _id, ...event }) => event)).toEqual([{ type: "realm", op: "update_dict", property: "default", data: { description: "We make **things**." } }]);
    expect(fresh.realm_description).toBe("We make **things**.");
  });

  test.each([
    ["an empty name", { name: "   " }, "The organization needs a name."],
    ["a name over 40 characters", { name: "x".repeat(41) }, "The organization name is at most 40 characters."],
    ["a description over 1000 characters", { description: "x".repeat(1001) }, "The organization description is at most 1000 characters."],
  ])("%s is refused", async (_label, params, msg) => {
    const response = await org.owner.api.patch("/realm", params);
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe(msg);
  });

  test("the same value again changes nothing and sends nothing", async () => {
    const current = (await realmOf(org.member)).realm_name;
    const queue = await queueOf(org.member);
    expect(ok(await org.owner.api.patch("/realm", { name: current }))).toEqual({ result: "success", msg: "" });
    expect(await pendingOf(org.member, queue, ["realm"])).toEqual([]);
  });

  test("nothing at all is a success that changes nothing; unknown parameters are listed as ignored", async () => {
    expect(ok(await org.admin.api.patch("/realm", {}))).toEqual({ result: "success", msg: "" });
    expect(ok(await org.admin.api.patch("/realm", { realm_colour: "blue" })).ignored_parameters_unsupported).toEqual(["realm_colour"]);
  });
});

interface ScalarCase {
  name: string;
  value: unknown;
  /** What register shows afterwards. */
  shown: Record<string, unknown>;
  /** The event's form: update with this value, or update_dict with this data. */
  event: { value: unknown } | { data: Record<string, unknown> };
  invalid: unknown;
  ownerOnly?: boolean;
}

const SCALARS: ScalarCase[] = [
  { name: "mandatory_topics", value: true, shown: { realm_mandatory_topics: true, realm_topics_policy: "disable_empty_topic" }, event: { data: { topics_policy: "disable_empty_topic", mandatory_topics: true } }, invalid: "maybe" },
  { name: "topics_policy", value: "allow_empty_topic", shown: { realm_mandatory_topics: false, realm_topics_policy: "allow_empty_topic" }, event: { data: { topics_policy: "allow_empty_topic", mandatory_topics: false } }, invalid: "inherit" },
  { name: "enable_spectator_access", value: true, shown: { realm_enable_spectator_access: true }, event: { value: true }, invalid: "sure" },
  { name: "allow_message_editing", value: false, shown: { realm_allow_message_editing: false }, event: { data: { allow_message_editing: false } }, invalid: 2 },
  { name: "message_content_edit_limit_seconds", value: 3600, shown: { realm_message_content_edit_limit_seconds: 3600 }, event: { data: { message_content_edit_limit_seconds: 3600 } }, invalid: 0 },
  { name: "message_content_delete_limit_seconds", value: 120, shown: { realm_message_content_delete_limit_seconds: 120 }, event: { value: 120 }, invalid: -5 },
  { name: "move_messages_within_stream_limit_seconds", value: "unlimited", shown: { realm_move_messages_within_stream_limit_seconds: null }, event: { value: null }, invalid: "forever" },
  { name: "move_messages_between_streams_limit_seconds", value: 86400, shown: { realm_move_messages_between_streams_limit_seconds: 86400 }, event: { value: 86400 }, invalid: 1.5 },
  { name: "message_edit_history_visibility_policy", value: "moves", shown: { realm_message_edit_history_visibility_policy: "moves" }, event: { value: "moves" }, invalid: "some" },
  { name: "waiting_period_threshold", value: 0, shown: { realm_waiting_period_threshold: 0 }, event: { value: 0 }, invalid: -1, ownerOnly: true },
  { name: "max_file_upload_size_mib", value: 10, shown: { max_file_upload_size_mib: 10 }, event: { data: { max_file_upload_size_mib: 10 } }, invalid: 26, ownerOnly: true },
  { name: "upload_quota_mib", value: 500, shown: { realm_upload_quota_mib: 500 }, event: { data: { upload_quota_mib: 500 } }, invalid: -1, ownerOnly: true },
  { name: "upload_quota_per_user_mib", value: 50, shown: { realm_upload_quota_per_user_mib: 50 }, event: { data: { upload_quota_per_user_mib: 50 } }, invalid: 1.5, ownerOnly: true },
];

describe("PATCH /realm: settings", () => {
  for (const setting of SCALARS) {
    test(`${setting.name}: changed, announced, and shown by register`, async () => {
      // waiting_period_threshold starts at 0: move it away first so that setting 0 changes it.
      if (setting.name === "waiting_period_threshold") ok(await org.owner.api.patch("/realm", { waiting_period_threshold: 5 }));
      const { events, fresh } = await change({ [setting.name]: setting.value });
      const expected = "value" in setting.event ? { type: "realm", op: "update", property: setting.name, value: setting.event.value } : { type: "realm", op: "update_dict", property: "default", data: setting.event.data };
      expect(events.map(({ id: _id, ...event }) => event)).toEqual([expected]);
      expect(fresh).toMatchObject(setting.shown);
    });

    test(`${setting.name}: an invalid value is refused and changes nothing`, async () => {
      const before = await realmOf(org.member);
      expectError(await org.owner.api.patch("/realm", { [setting.name]: setting.invalid }), "BAD_REQUEST");
      const after = await realmOf(org.member);
      for (const key of Object.keys(setting.shown)) expect(after[key]).toEqual(before[key]);
    });

    test(`${setting.name}: ${setting.ownerOnly ? "only owners" : "administrators"} may change it`, async () => {
      const refused: Person[] = setting.ownerOnly ? [org.admin, org.moderator, org.member, org.guest, org.bot] : [org.moderator, org.member, org.guest, org.bot];
      for (const person of refused) expectError(await person.api.patch("/realm", { [setting.name]: setting.value }), "UNAUTHORIZED_PRINCIPAL");
      if (!setting.ownerOnly) ok(await org.admin.api.patch("/realm", { [setting.name]: setting.value }));
    });
  }

  test("time limits take a positive number of seconds or unlimited, JSON-encoded or not", async () => {
    ok(await org.admin.api.patch("/realm", { message_content_edit_limit_seconds: '"unlimited"' }));
    expect((await realmOf(org.member)).realm_message_content_edit_limit_seconds).toBeNull();
    ok(await org.admin.api.patch("/realm", { message_content_edit_limit_seconds: 600 }));
    expect((await realmOf(org.member)).realm_message_content_edit_limit_seconds).toBe(600);
    expect((await org.admin.api.patch("/realm", { message_content_edit_limit_seconds: 0 })).body.msg).toBe("Bad value for 'message_content_edit_limit_seconds': 0");
  });

  test("topics_policy and mandatory_topics together must agree", async () => {
    expectError(await org.admin.api.patch("/realm", { topics_policy: "disable_empty_topic", mandatory_topics: false }), "BAD_REQUEST");
    ok(await org.admin.api.patch("/realm", { topics_policy: "disable_empty_topic", mandatory_topics: true }));
    ok(await org.admin.api.patch("/realm", { mandatory_topics: false }));
  });

  test("max_file_upload_size_mib above the server's own limit says so; the new limit applies to uploads", async () => {
    const response = await org.owner.api.patch("/realm", { max_file_upload_size_mib: 100 });
    expect(response.body.msg).toBe("'max_file_upload_size_mib' cannot exceed this server's limit of 25 MiB.");
    ok(await org.owner.api.patch("/realm", { max_file_upload_size_mib: 0 }));
    const file = () => new File(["hello"], "hello.txt", { type: "text/plain" });
    expectError(await org.member.api.post("/user_uploads", { file: file() }, { multipart: true }), "BAD_REQUEST");
    ok(await org.owner.api.patch("/realm", { max_file_upload_size_mib: 25 }));
    ok(await org.member.api.post("/user_uploads", { file: file() }, { multipart: true }));
  });

  for (const name of ["upload_quota_mib", "upload_quota_per_user_mib"]) {
    test(`${name} takes unlimited for no quota`, async () => {
      ok(await org.owner.api.patch("/realm", { [name]: 5 }));
      const { events, fresh } = await change({ [name]: "unlimited" });
      expect(events.map((event) => event.data)).toEqual([{ [name]: null }]);
      expect(fresh[`realm_${name}`]).toBeNull();
    });
  }

  test("new_stream_announcements_stream_id: a channel, -1 for none, and an unknown channel refused", async () => {
    const channelId = await createChannel(org, org.owner);
    const set = await change({ new_stream_announcements_stream_id: channelId });
    expect(set.events.map(({ id: _id, ...event }) => event)).toEqual([{ type: "realm", op: "update", property: "new_stream_announcements_stream_id", value: channelId }]);
    expect(set.fresh.realm_new_stream_announcements_stream_id).toBe(channelId);
    const unset = await change({ new_stream_announcements_stream_id: -1 });
    expect(unset.events[0].value).toBe(-1);
    expect(unset.fresh.realm_new_stream_announcements_stream_id).toBe(-1);
    expect((await org.admin.api.patch("/realm", { new_stream_announcements_stream_id: 999_999 })).body.msg).toBe("Invalid channel ID");
  });

  test("wrong types are refused with the parameter named", async () => {
    for (const [name, value] of [
      ["waiting_period_threshold", "soon"],
      ["enable_spectator_access", "perhaps"],
      ["new_stream_announcements_stream_id", "general"],
      ["max_file_upload_size_mib", "big"],
      ["upload_quota_mib", "lots"],
      ["upload_quota_per_user_mib", "plenty"],
    ] as const) {
      const response = await org.owner.api.patch("/realm", { [name]: value });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain(name);
    }
  });
});

describe("PATCH /realm: waiting period and full members", () => {
  test("a longer waiting period takes new members out of role:fullmembers, and 0 puts them back", async () => {
    const fullMembers = group("role:fullmembers");
    const membersOf = (state: State) => state.realm_user_groups.find((each: State) => each.id === fullMembers).members as number[];
    expect(membersOf(await realmOf(org.member))).toContain(org.member.id);

    const snapshot = await realmOf(org.member);
    ok(await org.owner.api.patch("/realm", { waiting_period_threshold: 3 }));
    const events = await pendingOf(org.member, snapshot.queue_id, ["realm", "user_group"]);
    expect(events.map((event) => `${event.type} ${event.op}`)).toEqual(["realm update", "user_group remove_members"]);
    const left: number[] = events[1].user_ids;
    expect(events[1].group_id).toBe(fullMembers);
    expect(left).toEqual(expect.arrayContaining([org.member.id, org.member2.id]));
    const after = await realmOf(org.member);
    expect(membersOf(after)).not.toContain(org.member.id);
    expect(membersOf(after)).toEqual(membersOf(snapshot).filter((id) => !left.includes(id)));

    // A setting held by full members now excludes them.
    ok(await org.owner.api.patch("/realm", { can_create_groups: JSON.stringify({ new: fullMembers }) }));
    expectError(await org.member.api.post("/user_groups/create", { name: "Too new", description: "", members: [] }), "BAD_REQUEST");

    ok(await org.owner.api.patch("/realm", { waiting_period_threshold: 0 }));
    expect(membersOf(await realmOf(org.member))).toContain(org.member.id);
    ok(await org.member.api.post("/user_groups/create", { name: "Old enough", description: "", members: [] }));
    ok(await org.owner.api.patch("/realm", { can_create_groups: JSON.stringify({ new: group("role:members") }) }));
  });
});

/** A value each group setting accepts other than its default, and one it refuses. */
const GROUP_SETTINGS: Record<string, { to: string; refused: string }> = {
  can_create_public_channel_group: { to: "role:moderators", refused: "role:everyone" },
  can_create_private_channel_group: { to: "role:moderators", refused: "role:internet" },
  can_create_web_public_channel_group: { to: "role:administrators", refused: "role:members" },
  can_add_subscribers_group: { to: "role:administrators", refused: "role:everyone" },
  can_invite_users_group: { to: "role:administrators", refused: "role:everyone" },
  create_multiuse_invite_group: { to: "role:moderators", refused: "role:everyone" },
  can_create_groups: { to: "role:moderators", refused: "role:everyone" },
  can_manage_all_groups: { to: "role:administrators", refused: "role:nobody" },
  can_mention_many_users_group: { to: "role:everyone", refused: "role:internet" },
  can_create_bots_group: { to: "role:administrators", refused: "role:everyone" },
  can_create_write_only_bots_group: { to: "role:administrators", refused: "role:everyone" },
  can_delete_any_message_group: { to: "role:moderators", refused: "role:everyone" },
  can_delete_own_message_group: { to: "role:members", refused: "role:internet" },
  can_move_messages_between_channels_group: { to: "role:moderators", refused: "role:everyone" },
  can_move_messages_between_topics_group: { to: "role:members", refused: "role:internet" },
  can_resolve_topics_group: { to: "role:members", refused: "role:internet" },
  can_add_custom_emoji_group: { to: "role:administrators", refused: "role:everyone" },
  direct_message_permission_group: { to: "role:members", refused: "role:internet" },
  direct_message_initiator_group: { to: "role:members", refused: "role:internet" },
};
const OWNER_ONLY_GROUP_SETTINGS = ["create_multiuse_invite_group", "can_create_groups", "can_invite_users_group", "can_manage_all_groups"];

describe("PATCH /realm: group settings", () => {
  for (const [setting, { to, refused }] of Object.entries(GROUP_SETTINGS)) {
    test(`${setting}: set in the {new, old} form, announced as update_dict`, async () => {
      const old = (await realmOf(org.member))[`realm_${setting}`];
      const { body, events, fresh } = await change({ [setting]: JSON.stringify({ new: group(to), old }) });
      expect(body[setting]).toBe(group(to));
      expect(events.map(({ id: _id, ...event }) => event)).toEqual([{ type: "realm", op: "update_dict", property: "default", data: { [setting]: group(to) } }]);
      expect(fresh[`realm_${setting}`]).toBe(group(to));
      // Back as it was, for the other tests.
      ok(await org.owner.api.patch("/realm", { [setting]: JSON.stringify({ new: old }) }));
    });

    test(`${setting}: ${refused} is refused`, async () => {
      expectError(await org.owner.api.patch("/realm", { [setting]: JSON.stringify({ new: group(refused) }) }), "BAD_REQUEST");
    });

    const owners = OWNER_ONLY_GROUP_SETTINGS.includes(setting);
    test(`${setting}: ${owners ? "only owners" : "administrators"} may change it`, async () => {
      const value = JSON.stringify({ new: group(to) });
      for (const person of owners ? [org.admin, org.moderator, org.member, org.guest, org.bot] : [org.moderator, org.member, org.guest, org.bot]) {
        expectError(await person.api.patch("/realm", { [setting]: value }), "UNAUTHORIZED_PRINCIPAL");
      }
    });
  }

  test("specific people and groups: stored as given, shown as an object, and replaced cleanly", async () => {
    const value = { direct_members: [org.member.id], direct_subgroups: [group("role:moderators")] };
    const { events, fresh } = await change({ can_add_custom_emoji_group: JSON.stringify({ new: value }) });
    expect(events[0].data).toEqual({ can_add_custom_emoji_group: value });
    expect(fresh.realm_can_add_custom_emoji_group).toEqual(value);
    // The member now may add custom emoji; member2 may not.
    ok(await org.owner.api.patch("/realm", { can_add_custom_emoji_group: JSON.stringify({ new: group("role:members"), old: value }) }));
    expect((await realmOf(org.member)).realm_can_add_custom_emoji_group).toBe(group("role:members"));
  });

  test("a stale old value, an unknown group, a deactivated user and a named user group outside allowed system groups are refused", async () => {
    const stale = await org.owner.api.patch("/realm", { can_create_bots_group: JSON.stringify({ new: group("role:administrators"), old: group("role:nobody") }) });
    expect(stale.body.msg).toBe("'old' value does not match the expected value.");
    expect((await org.owner.api.patch("/realm", { can_create_bots_group: JSON.stringify({ new: 999_999 }) })).body.msg).toBe("Invalid user group ID: 999999");
    expect((await org.owner.api.patch("/realm", { can_create_bots_group: JSON.stringify({ new: { direct_members: [999_999], direct_subgroups: [] } }) })).body.msg).toBe("Invalid user ID: 999999");
    const team = ok(await org.admin.api.post("/user_groups/create", { name: "Web team", description: "", members: [org.member.id] })).group_id;
    expect((await org.owner.api.patch("/realm", { can_create_web_public_channel_group: JSON.stringify({ new: team }) })).body.msg).toBe("'can_create_web_public_channel_group' must be a system user group.");
    expectError(await org.owner.api.patch("/realm", { can_create_bots_group: "not json" }), "BAD_REQUEST");
    expectError(await org.owner.api.patch("/realm", { can_create_bots_group: JSON.stringify({ old: 1 }) }), "BAD_REQUEST");
  });

  test("a refused setting in a request changes none of the others", async () => {
    const before = await realmOf(org.member);
    expectError(await org.owner.api.patch("/realm", { name: "Half done", can_create_bots_group: JSON.stringify({ new: group("role:internet") }) }), "BAD_REQUEST");
    expect((await realmOf(org.member)).realm_name).toBe(before.realm_name);
  });
});

describe("PATCH /realm from a browser session", () => {
  async function signIn(person: Person) {
    const response = await postFrom("127.0.3.1", `${org.server.url}/login`, { username: person.email, password: person.password });
    expect(response.status).toBe(303);
    const cookies = ([] as string[]).concat(response.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]!);
    return { cookie: cookies.join("; "), csrf: cookies.find((cookie) => cookie.startsWith("parley_csrf="))!.slice("parley_csrf=".length) };
  }
  async function patch(session: { cookie: string; csrf: string }, params: Record<string, unknown>, csrf: string | null = session.csrf) {
    const headers: Record<string, string> = { cookie: session.cookie, "content-type": "application/x-www-form-urlencoded" };
    if (csrf !== null) headers["x-csrf-token"] = csrf;
    const body = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, encodeParam(value)]));
    const response = await fetch(`${org.server.url}/api/v1/realm`, { method: "PATCH", headers, body });
    return { status: response.status, body: await response.json() };
  }

  test("an administrator's session with its CSRF value changes the name", async () => {
    const session = await signIn(org.admin);
    ok(await patch(session, { name: "Session Org" }));
    expect((await realmOf(org.member)).realm_name).toBe("Session Org");
  });

  test("register takes the session too, as the console reads the settings that way; without the CSRF header it is refused", async () => {
    const session = await signIn(org.admin);
    const send = async (headers: Record<string, string>) => {
      const response = await fetch(`${org.server.url}/api/v1/register`, { method: "POST", headers: { cookie: session.cookie, "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams({ fetch_event_types: '["realm"]' }) });
      return { status: response.status, body: await response.json() };
    };
    expect(ok(await send({ "x-csrf-token": session.csrf })).realm_name).toBeString();
    expect((await send({})).status).toBeGreaterThanOrEqual(400);
  });

  test("a member's forged request with the session cookie and CSRF header is refused; without the header too", async () => {
    const session = await signIn(org.member);
    const before = (await realmOf(org.member)).realm_name;
    expectError(await patch(session, { name: "Hijacked" }), "UNAUTHORIZED_PRINCIPAL");
    expect((await patch(session, { name: "Hijacked" }, null)).status).toBeGreaterThanOrEqual(400);
    expectError(await org.member.api.patch("/realm", { name: "Hijacked" }), "UNAUTHORIZED_PRINCIPAL");
    expect((await realmOf(org.member)).realm_name).toBe(before);
  });
});
