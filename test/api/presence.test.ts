import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { queryServer, setRealmSetting, systemGroupId } from "../helpers/channels";
import { editServerDatabase } from "../helpers/inProcess";
import { FLUTTER_REGISTER_PARAMS, checkClass, flutterEventProblems, flutterSnapshotProblems } from "../clients/flutterContract";
import { ApiClient } from "../helpers/client";
import { type Org, type Person, createPerson, expectError, ok, seedOrg } from "../helpers/seed";
import { SEED_TIMEOUT_MS, pending, type Event } from "../events/support";

/**
 * Presence (issue 14): POST /users/me/presence in its modern and legacy forms, GET
 * /realm/presence, GET /users/{user_id_or_email}/presence, the register section, presence
 * events (sent when what others see changes, not at every ping), presence_enabled, and the
 * in-memory presence surviving restarts.
 */

let org: Org;
beforeAll(async () => {
  org = await seedOrg({ env: { PARLEY_PRESENCE_FLUSH_SECONDS: "1" } });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const seconds = () => Date.now() / 1000;
const ping = (person: Person, params: Record<string, unknown> = {}) => person.api.post("/users/me/presence", { status: "active", ...params });
let people = 0;
const newPerson = () => createPerson(org.owner, org.anon, `Presence Person ${++people}`);

/** The API e-mail `viewer` knows `person` by (the stand-in address when the real one is hidden from them). */
const apiEmail = async (viewer: Person, person: Person): Promise<string> => ok(await viewer.api.get(`/users/${person.id}`)).user.email;

/** A queue that hears presence events, in the legacy form or (simplified) the modern one. */
async function presenceQueue(person: Person, simplified = false) {
  const params = { event_types: ["presence"], fetch_event_types: ["presence"], slim_presence: simplified, client_capabilities: { simplified_presence_events: simplified } };
  const { queue_id } = ok(await person.api.post("/register", params));
  let seen = -1;
  /** The presence events queued since the last call. */
  return async (): Promise<Event[]> => {
    const events = await pending(person, queue_id, seen);
    if (events.length > 0) seen = events[events.length - 1].id;
    return events.filter((event) => event.type === "presence").map(({ id: _id, ...event }) => event as Event);
  };
}

/** After a restart: every person's client speaks to the new address. */
function reconnect(target: Org) {
  target.anon = new ApiClient(target.server.url);
  for (const role of ["owner", "admin", "moderator", "member", "member2", "guest", "bot"] as const) target[role] = { ...target[role], api: target.anon.as(target[role].email, target[role].apiKey) };
}

describe("POST /users/me/presence", () => {
  test("the legacy answer: everyone keyed by e-mail, one 'website' client and 'aggregated'", async () => {
    const person = await newPerson();
    const before = Math.floor(seconds());
    const body = ok(await ping(person));
    expect(Object.keys(body).sort()).toEqual(["msg", "presence_last_update_id", "presences", "result", "server_timestamp"]);
    expect(body.server_timestamp).toBeGreaterThanOrEqual(before);
    expect(Number.isInteger(body.server_timestamp)).toBe(false);
    const own = body.presences[person.email];
    expect(own).toEqual({
      website: { client: "website", status: "active", timestamp: expect.any(Number), pushable: false },
      aggregated: { client: "website", status: "active", timestamp: own.website.timestamp },
    });
    expect(own.website.timestamp).toBeGreaterThanOrEqual(before);
    expect(own.website.timestamp).toBeLessThanOrEqual(Math.ceil(seconds()));
    expect(body.presence_last_update_id).toBeGreaterThan(0);
  });

  test("slim_presence and last_update_id answer in the modern format, keyed by user ID", async () => {
    const person = await newPerson();
    const slim = ok(await ping(person, { slim_presence: true }));
    const own = slim.presences[String(person.id)];
    expect(own).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    expect(own.active_timestamp).toBe(own.idle_timestamp);
    expect(Object.keys(slim.presences).every((key) => /^\d+$/.test(key))).toBe(true);
    const fromStart = ok(await ping(person, { last_update_id: -1 }));
    expect(fromStart.presences[String(person.id)]).toEqual(own);
    expect(fromStart.presence_last_update_id).toBe(slim.presence_last_update_id);
  });

  test("last_update_id fetches only what changed since, and repeats itself when nothing did", async () => {
    const watcher = await newPerson();
    const { presence_last_update_id: known } = ok(await ping(watcher, { last_update_id: -1 }));
    // Within the minute nothing moves: the watcher's own ping changes nothing either.
    expect(ok(await ping(watcher, { last_update_id: known }))).toMatchObject({ presences: {}, presence_last_update_id: known });
    const other = await newPerson();
    ok(await ping(other, { status: "idle", ping_only: true }));
    const next = ok(await ping(watcher, { last_update_id: known }));
    expect(Object.keys(next.presences)).toEqual([String(other.id)]);
    expect(next.presence_last_update_id).toBeGreaterThan(known);
    expect(ok(await ping(watcher, { last_update_id: next.presence_last_update_id })).presences).toEqual({});
  });

  test("ping_only records the report and answers nothing else", async () => {
    const person = await newPerson();
    expect(ok(await ping(person, { ping_only: true, new_user_input: true }))).toEqual({ result: "success", msg: "" });
    expect(ok(await ping(org.owner, { slim_presence: true })).presences[String(person.id)]).toBeDefined();
  });

  test("a first report of 'idle': connected now, activity counted from joining (as the reference)", async () => {
    const person = await newPerson();
    const joined = Math.floor(Date.parse(ok(await org.owner.api.get(`/users/${person.id}`)).user.date_joined) / 1000);
    ok(await ping(person, { status: "idle", ping_only: true }));
    const entry = ok(await ping(org.owner, { slim_presence: true })).presences[String(person.id)];
    expect(entry.active_timestamp).toBe(joined);
    expect(entry.idle_timestamp).toBeGreaterThanOrEqual(joined);
    // "active" after an idle report moves the activity time.
    ok(await ping(person, { ping_only: true }));
    const after = ok(await ping(org.owner, { slim_presence: true })).presences[String(person.id)];
    expect(after.active_timestamp).toBeGreaterThanOrEqual(entry.idle_timestamp);
  });

  test("bots may report but have no presence; nobody lists them", async () => {
    ok(await ping(org.bot, { ping_only: true }));
    const listed = ok(await ping(org.bot, { slim_presence: true }));
    expect(listed.presences[String(org.bot.id)]).toBeUndefined();
    expect(ok(await org.owner.api.get("/realm/presence")).presences[org.bot.email]).toBeUndefined();
  });

  test.each([
    ["no status", {}],
    ["an unknown status", { status: "away" }],
    ["an empty status", { status: "" }],
    ["a huge status", { status: "a".repeat(100_000) }],
    ["a non-integer last_update_id", { status: "active", last_update_id: "1.5" }],
    ["a word for last_update_id", { status: "active", last_update_id: "latest" }],
    ["a last_update_id below -1", { status: "active", last_update_id: -2 }],
    ["a negative history_limit_days", { status: "active", history_limit_days: -1 }],
    ["a non-boolean ping_only", { status: "active", ping_only: "sometimes" }],
    ["a non-boolean slim_presence", { status: "active", slim_presence: "[]" }],
  ])("%s is a BAD_REQUEST that records nothing", async (_name, params) => {
    const person = await newPerson();
    expectError(await person.api.post("/users/me/presence", params), "BAD_REQUEST");
    const listed = ok(await ping(org.owner, { slim_presence: true, ping_only: false }));
    expect(listed.presences[String(person.id)]).toBeUndefined();
  });

  test("the unknown status is named as the reference names it", async () => {
    const response = await org.member.api.post("/users/me/presence", { status: "away" });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("Invalid status: away");
  });

  test("without credentials nothing is recorded or listed", async () => {
    expect((await org.anon.post("/users/me/presence", { status: "active" })).status).toBe(401);
    expect((await org.anon.get("/realm/presence")).status).toBe(401);
    expect((await org.anon.get(`/users/${org.member.id}/presence`)).status).toBe(401);
  });
});

describe("who is listed, and under which address", () => {
  test("a hidden address is listed under its stand-in; those allowed see the real one", async () => {
    const person = await newPerson();
    ok(await person.api.patch("/settings", { email_address_visibility: 3 }));
    ok(await ping(person, { ping_only: true }));
    const standIn = await apiEmail(org.member, person);
    expect(standIn).toMatch(/^user\d+@/);
    const seenByMember = ok(await ping(org.member)).presences;
    expect(seenByMember[standIn]).toBeDefined();
    expect(seenByMember[person.email]).toBeUndefined();
    const seenByAdmin = ok(await org.admin.api.get("/realm/presence")).presences;
    expect(seenByAdmin[person.email]).toBeDefined();
    expect(seenByAdmin[standIn]).toBeUndefined();
  });

  test("deactivated users are never listed", async () => {
    const person = await newPerson();
    ok(await ping(person, { ping_only: true }));
    expect(ok(await org.member.api.get("/realm/presence")).presences[person.email]).toBeDefined();
    ok(await org.owner.api.delete(`/users/${person.id}`));
    expect(ok(await org.member.api.get("/realm/presence")).presences[person.email]).toBeUndefined();
    expect(ok(await ping(org.member, { last_update_id: -1 })).presences[String(person.id)]).toBeUndefined();
    expect(ok(await org.member.api.post("/register", { fetch_event_types: ["presence"], slim_presence: true })).presences[String(person.id)]).toBeUndefined();
    expectError(await org.member.api.get(`/users/${person.id}/presence`), "BAD_REQUEST");
  });

  describe("a guest who may not see everyone", () => {
    beforeAll(() => setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:members")));
    afterAll(() => setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:everyone")));

    test("sees only their own presence, hears of nobody else's, and may not ask for it", async () => {
      ok(await ping(org.member, { ping_only: true }));
      const modern = ok(await ping(org.guest, { last_update_id: -1 }));
      expect(Object.keys(modern.presences)).toEqual([String(org.guest.id)]);
      expect(Object.keys(ok(await org.guest.api.get("/realm/presence")).presences)).toEqual([org.guest.email]);
      const registered = ok(await org.guest.api.post("/register", { fetch_event_types: ["presence"] }));
      expect(Object.keys(registered.presences)).toEqual([org.guest.email]);
      const response = await org.guest.api.get(`/users/${org.member.id}/presence`);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("Insufficient permission");
      const events = await presenceQueue(org.guest, true);
      const othersEvents = await presenceQueue(org.member2, true);
      ok(await (await newPerson()).api.post("/users/me/presence", { status: "active", ping_only: true }));
      expect(await othersEvents()).toHaveLength(1);
      expect(await events()).toEqual([]);
    });
  });
});

describe("GET /realm/presence", () => {
  test("everyone recently connected, in the legacy format, without presence_last_update_id", async () => {
    const person = await newPerson();
    ok(await ping(person, { ping_only: true }));
    const body = ok(await org.member2.api.get("/realm/presence"));
    expect(Object.keys(body).sort()).toEqual(["msg", "presences", "result", "server_timestamp"]);
    expect(body.presences[person.email]).toEqual({
      website: { client: "website", status: "active", timestamp: expect.any(Number), pushable: false },
      aggregated: { client: "website", status: "active", timestamp: expect.any(Number) },
    });
  });
});

describe("GET /users/{user_id_or_email}/presence", () => {
  test("by ID, by address and by stand-in address: 'website' and 'aggregated' with status and time", async () => {
    const person = await newPerson();
    ok(await ping(person, { ping_only: true }));
    const byId = ok(await org.member.api.get(`/users/${person.id}/presence`));
    expect(byId).toEqual({ result: "success", msg: "", presence: { website: { status: "active", timestamp: expect.any(Number) }, aggregated: { status: "active", timestamp: expect.any(Number) } } });
    expect(ok(await org.member.api.get(`/users/${person.email}/presence`)).presence).toEqual(byId.presence);
    const realmHost = ok(await org.member.api.post("/register", { fetch_event_types: ["realm"] })).realm_bot_domain;
    expect(ok(await org.member.api.get(`/users/user${person.id}@${realmHost}/presence`)).presence).toEqual(byId.presence);
  });

  test("a user who never reported, a bot, an unknown user and a hidden address are refused", async () => {
    const silent = await newPerson();
    const never = await org.member.api.get(`/users/${silent.id}/presence`);
    expectError(never, "BAD_REQUEST");
    expect(never.body.msg).toBe(`No presence data for ${silent.id}`);
    const bot = await org.member.api.get(`/users/${org.bot.id}/presence`);
    expectError(bot, "BAD_REQUEST");
    expect(bot.body.msg).toBe("Presence is not supported for bot users.");
    for (const key of ["999999", "nobody@example.com", "me", "x".repeat(254)]) {
      const response = await org.member.api.get(`/users/${encodeURIComponent(key)}/presence`);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("No such user");
    }
    const hidden = await newPerson();
    ok(await hidden.api.patch("/settings", { email_address_visibility: 4 }));
    ok(await ping(hidden, { ping_only: true }));
    expectError(await org.member.api.get(`/users/${hidden.email}/presence`), "BAD_REQUEST");
    ok(await org.member.api.get(`/users/${hidden.id}/presence`));
  });
});

describe("the register section", () => {
  test("presences, presence_last_update_id and server_timestamp, legacy or slim", async () => {
    const person = await newPerson();
    const { presence_last_update_id: latest } = ok(await ping(person));
    const legacy = ok(await org.member.api.post("/register", { fetch_event_types: ["presence"] }));
    expect(legacy.presences[person.email].aggregated.status).toBe("active");
    expect(legacy.presence_last_update_id).toBeGreaterThanOrEqual(latest);
    expect(typeof legacy.server_timestamp).toBe("number");
    const slim = ok(await org.member.api.post("/register", { fetch_event_types: ["presence"], slim_presence: true }));
    expect(slim.presences[String(person.id)]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    expect(slim.presence_last_update_id).toBe(legacy.presence_last_update_id);
    const none = ok(await org.member.api.post("/register", { fetch_event_types: ["presence"], presence_history_limit_days: 0 }));
    expect(none).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    const timing = ok(await org.member.api.post("/register", { fetch_event_types: ["realm"] }));
    expect(timing).toMatchObject({ server_presence_ping_interval_seconds: 60, server_presence_offline_threshold_seconds: 140 });
  });
});

describe("presence events", () => {
  test("coming online is told to everyone, in the legacy and the simplified form; later pings tell nothing", async () => {
    const legacyEvents = await presenceQueue(org.member2);
    const modernEvents = await presenceQueue(org.moderator, true);
    const person = await newPerson();
    ok(await ping(person, { ping_only: true }));
    const [legacy] = await legacyEvents();
    expect(legacy as Record<string, unknown>).toEqual({
      type: "presence",
      user_id: person.id,
      email: person.email,
      server_timestamp: expect.any(Number),
      presence: { website: { client: "website", status: "active", timestamp: expect.any(Number), pushable: false } },
    });
    const stamp = legacy.presence.website.timestamp;
    expect(await modernEvents()).toEqual([{ type: "presence", presences: { [String(person.id)]: { active_timestamp: stamp, idle_timestamp: stamp } } } as Record<string, unknown> as Event]);
    for (const status of ["active", "idle", "active", "idle"]) ok(await ping(person, { status, ping_only: true }));
    ok(await ping(person));
    expect(await legacyEvents()).toEqual([]);
    expect(await modernEvents()).toEqual([]);
  });

  test("each audience gets the address it knows the user by", async () => {
    const person = await newPerson();
    ok(await person.api.patch("/settings", { email_address_visibility: 3 }));
    const memberEvents = await presenceQueue(org.member);
    const adminEvents = await presenceQueue(org.admin);
    const ownEvents = await presenceQueue(person);
    ok(await ping(person, { ping_only: true }));
    expect((await memberEvents()).map((event) => event.email)).toEqual([await apiEmail(org.member, person)]);
    expect((await adminEvents()).map((event) => event.email)).toEqual([person.email]);
    expect((await ownEvents()).map((event) => event.email)).toEqual([person.email]);
  });

  test("presence_enabled off: others see the user as offline at once, and reports are ignored until it is on again", async () => {
    const person = await newPerson();
    ok(await ping(person, { ping_only: true }));
    // The observer is online already, so its own polls below are no news.
    ok(await ping(org.member2, { ping_only: true }));
    const events = await presenceQueue(org.member2, true);
    ok(await person.api.patch("/settings", { presence_enabled: false }));
    const [hidden] = await events();
    const shown = hidden.presences[String(person.id)];
    // Last seen before the offline threshold: every client shows offline.
    expect(seconds() - shown.active_timestamp).toBeGreaterThan(140);
    expect(shown.idle_timestamp).toBe(shown.active_timestamp);
    expect(ok(await ping(org.member2, { slim_presence: true })).presences[String(person.id)]).toEqual(shown);
    ok(await ping(person, { ping_only: true }));
    expect(ok(await ping(org.member2, { slim_presence: true })).presences[String(person.id)]).toEqual(shown);
    expect(await events()).toEqual([]);
    expect(ok(await org.member2.api.get(`/users/${person.id}/presence`)).presence.aggregated.status).toBe("offline");
    // Turning it on again shows the user active now; the status endpoint's `away` is the same setting.
    ok(await person.api.patch("/settings", { presence_enabled: true }));
    const [visible] = await events();
    expect(seconds() - visible.presences[String(person.id)].active_timestamp).toBeLessThan(5);
    ok(await person.api.post("/users/me/status", { away: true }));
    expect(seconds() - (await events())[0].presences[String(person.id)].active_timestamp).toBeGreaterThan(140);
    ok(await person.api.post("/users/me/status", { away: false }));
    expect(await events()).toHaveLength(1);
  });

  test("a user who never reported and turns presence off is listed as long offline", async () => {
    const person = await newPerson();
    ok(await person.api.patch("/settings", { presence_enabled: false }));
    const shown = ok(await ping(org.member2, { slim_presence: true })).presences[String(person.id)];
    expect(seconds() - shown.idle_timestamp).toBeGreaterThan(140);
  });
});

describe("the mobile app (zulip-flutter)", () => {
  test("its register, its presence polls and pings, and the events they cause parse", async () => {
    const problems: string[] = [];
    const events = await presenceQueue(org.member2);
    const person = await newPerson();
    // As lib/model/presence.dart polls (slim_presence, no last_update_id) and pings.
    const polled = ok(await person.api.post("/users/me/presence", { status: "active", new_user_input: true, ping_only: false, slim_presence: true }));
    checkClass(polled, "UpdatePresenceResult", "updatePresence", problems);
    expect(polled.presences[String(person.id)]).toBeDefined();
    checkClass(ok(await person.api.post("/users/me/presence", { status: "idle", new_user_input: false, ping_only: true, slim_presence: true })), "UpdatePresenceResult", "ping", problems);
    const received = await events();
    expect(received).toHaveLength(1);
    for (const event of received) problems.push(...flutterEventProblems({ ...event, id: 1 }));
    const snapshot = ok(await person.api.post("/register", FLUTTER_REGISTER_PARAMS));
    expect(snapshot.presences[String(person.id)]).toEqual(polled.presences[String(person.id)]);
    problems.push(...flutterSnapshotProblems(snapshot));
    expect(problems).toEqual([]);
  });
});

describe("persistence and history", () => {
  test("presence is written to the database within the flush interval, not by the report", async () => {
    const person = await newPerson();
    const { presences, presence_last_update_id } = ok(await ping(person, { slim_presence: true }));
    const own = presences[String(person.id)];
    await Bun.sleep(2_200);
    const rows = queryServer<{ last_active_time: number; last_connected_time: number; last_update_id: number }>(org.server, "SELECT * FROM presences WHERE user_id = ?", person.id);
    expect(rows).toEqual([{ user_id: person.id, last_active_time: own.active_timestamp, last_connected_time: own.idle_timestamp, last_update_id: expect.any(Number) } as any]);
    expect(rows[0].last_update_id).toBeLessThanOrEqual(presence_last_update_id);
  });

  test("after a kill -9 past the flush, the stored presence and the update counter carry on", async () => {
    const person = await newPerson();
    ok(await ping(person, { ping_only: true }));
    await Bun.sleep(2_200);
    const before = ok(await ping(org.member, { last_update_id: -1 }));
    await org.server.restart("SIGKILL");
    reconnect(org);
    const after = ok(await ping(org.member, { last_update_id: -1 }));
    expect(after.presences[String(person.id)]).toEqual(before.presences[String(person.id)]);
    expect(after.presence_last_update_id).toBe(before.presence_last_update_id);
    const newcomer = await newPerson();
    ok(await ping(newcomer, { ping_only: true }));
    const next = ok(await ping(org.member, { last_update_id: after.presence_last_update_id }));
    expect(Object.keys(next.presences)).toEqual([String(newcomer.id)]);
  });

  test("history_limit_days and presence_history_limit_days leave out users connected longer ago", async () => {
    const old = await newPerson();
    const longAgo = Math.floor(seconds()) - 20 * 86_400;
    await org.server.stop();
    // Changed long ago, but with an update ID past every other (as after many updates since).
    editServerDatabase(org.server, "INSERT INTO presences (user_id, last_active_time, last_connected_time, last_update_id) VALUES (?, ?, ?, 1000000)", old.id, longAgo, longAgo);
    await org.server.restart();
    reconnect(org);
    const key = String(old.id);
    expect(ok(await ping(org.member, { slim_presence: true })).presences[key]).toBeUndefined();
    expect(ok(await ping(org.member, { slim_presence: true, history_limit_days: 30 })).presences[key]).toEqual({ active_timestamp: longAgo, idle_timestamp: longAgo });
    expect(ok(await ping(org.member, { last_update_id: -1, history_limit_days: 30 })).presences[key]).toBeDefined();
    expect(ok(await ping(org.member, { last_update_id: -1, history_limit_days: 0 })).presences).toEqual({});
    // A last_update_id of 0 fetches from the start, within the history limit; a positive one
    // is limited by the update ID alone.
    expect(ok(await ping(org.member, { last_update_id: 0 })).presences[key]).toBeUndefined();
    expect(ok(await ping(org.member, { last_update_id: 1 })).presences[key]).toEqual({ active_timestamp: longAgo, idle_timestamp: longAgo });
    expect(ok(await ping(org.member, { last_update_id: 1_000_000 })).presences[key]).toBeUndefined();
    const email = await apiEmail(org.member, old);
    expect(ok(await org.member.api.get("/realm/presence")).presences[email]).toBeUndefined();
    expect(ok(await org.member.api.post("/register", { fetch_event_types: ["presence"] })).presences[email]).toBeUndefined();
    expect(ok(await org.member.api.post("/register", { fetch_event_types: ["presence"], presence_history_limit_days: 30 })).presences[email]).toBeDefined();
    const single = ok(await org.member.api.get(`/users/${old.id}/presence`)).presence;
    expect(single.aggregated).toEqual({ status: "offline", timestamp: longAgo });
  });
});

/** The moments presence changes, on a server whose clock of presence runs in seconds. */
describe("changes over time", () => {
  let fast: Org;
  beforeAll(async () => {
    // Flushing rarely, so that only a clean stop writes what the last test reports.
    fast = await seedOrg({ env: { PARLEY_PRESENCE_PING_INTERVAL_SECONDS: "1", PARLEY_PRESENCE_OFFLINE_THRESHOLD_SECONDS: "2", PARLEY_PRESENCE_FLUSH_SECONDS: "600" } });
  }, SEED_TIMEOUT_MS);
  afterAll(() => fast.server.dispose());

  const statusesIn = (events: Event[]) => events.map((event) => event.presence.website.status);

  test("register tells clients the configured ping interval and offline threshold", async () => {
    const realm = ok(await fast.member.api.post("/register", { fetch_event_types: ["realm"] }));
    expect(realm).toMatchObject({ server_presence_ping_interval_seconds: 1, server_presence_offline_threshold_seconds: 2 });
  });

  test("online, idle once the activity is past the threshold, offline, and back: one event each", async () => {
    const events = await presenceQueue(fast.member2);
    const { member } = fast;
    ok(await ping(member, { ping_only: true }));
    expect(statusesIn(await events())).toEqual(["active"]);
    ok(await ping(member, { status: "idle", ping_only: true }));
    expect(await events()).toEqual([]);
    // The client stays connected, reporting "idle" twice a second: once the last activity is
    // past the threshold others are told, once.
    const whileIdle: Event[] = [];
    for (let i = 0; i < 8; i++) {
      await Bun.sleep(450);
      ok(await ping(member, { status: "idle", ping_only: true }));
      whileIdle.push(...(await events()));
    }
    expect(statusesIn(whileIdle)).toEqual(["idle"]);
    await Bun.sleep(3_100);
    // Offline by now, as clients compute it: the next report is news.
    expect(ok(await fast.member2.api.get(`/users/${member.id}/presence`)).presence.aggregated.status).toBe("offline");
    ok(await ping(member, { status: "idle", ping_only: true }));
    expect(statusesIn(await events())).toEqual(["idle"]);
    ok(await ping(member, { ping_only: true }));
    expect(statusesIn(await events())).toEqual(["active"]);
  });

  test("a clean stop writes presence that the flush interval had not yet written", async () => {
    const { member2 } = fast;
    ok(await ping(member2, { ping_only: true }));
    expect(queryServer(fast.server, "SELECT * FROM presences WHERE user_id = ?", member2.id)).toEqual([]);
    const before = ok(await ping(fast.member, { slim_presence: true })).presences[String(member2.id)];
    await fast.server.restart("SIGTERM");
    reconnect(fast);
    expect(queryServer(fast.server, "SELECT last_connected_time FROM presences WHERE user_id = ?", member2.id)).toEqual([{ last_connected_time: before.idle_timestamp }]);
    expect(ok(await ping(fast.member, { slim_presence: true })).presences[String(member2.id)]).toEqual(before);
  });
});
