import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createPerson, expectError, login, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { editServerDatabase } from "../helpers/inProcess";
import { setRealmSetting, systemGroupId } from "../helpers/channels";

const USER_FIELDS = "avatar_url avatar_version bot_owner_id bot_type date_joined delivery_email email full_name is_active is_admin is_bot is_guest is_owner role timezone user_id".split(" ");
const REALM_HOST = "localhost";

let org: Org;
let notificationBotId: number;
let nextName = 0;

/** A new member no other test touches, so tests can change people without order mattering. */
const freshMember = (role?: number) => createPerson(org.owner, org.anon, `Fresh Person ${String.fromCharCode(65 + nextName++)}`, role);

const members = async (as: Person = org.owner, params: Record<string, unknown> = {}) => ok(await as.api.get("/users", params)).members as any[];
const member = async (id: number, as: Person = org.owner) => ok(await as.api.get(`/users/${id}`, { client_gravatar: false })).user;

beforeAll(async () => {
  org = await seedOrg();
  notificationBotId = ok(await org.owner.api.get(`/users/notification-bot@${REALM_HOST}`)).user.user_id;
});
afterAll(() => org.server.dispose());

describe("GET /users", () => {
  test("lists every person and bot in the reference shape, avatars left to the client by default", async () => {
    const list = await members();
    const byId = new Map(list.map((user) => [user.user_id, user]));
    for (const person of [org.owner, org.admin, org.moderator, org.member, org.member2, org.guest, org.bot]) expect(byId.has(person.id)).toBe(true);
    for (const user of list) expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
    expect(byId.get(org.guest.id)).toMatchObject({ role: 600, is_guest: true, is_admin: false, is_owner: false, is_bot: false, bot_type: null, avatar_url: null, is_active: true });
    expect(byId.get(org.owner.id)).toMatchObject({ role: 100, is_owner: true, is_admin: true, email: org.owner.email, delivery_email: org.owner.email });
    expect(byId.get(org.bot.id)).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: org.member.id, role: 400, email: org.bot.email, delivery_email: org.bot.email });
    expect(byId.get(org.member.id).date_joined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00$/);
  });

  test("leaves out system bots, which are not members of the organization", async () => {
    expect((await members()).some((user) => user.user_id === notificationBotId)).toBe(false);
  });

  test("gives Gravatar URLs when client_gravatar is false, and profile_data for humans when asked", async () => {
    const list = await members(org.member, { client_gravatar: false, include_custom_profile_fields: true });
    const human = list.find((user) => user.user_id === org.admin.id);
    expect(human.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
    expect(human.profile_data).toEqual({});
    expect("profile_data" in list.find((user) => user.user_id === org.bot.id)).toBe(false);
  });

  test("is open to every role, bots included", async () => {
    for (const person of [org.owner, org.admin, org.moderator, org.member, org.guest, org.bot]) expect((await members(person)).length).toBeGreaterThanOrEqual(7);
  });

  test("includes deactivated users with is_active false", async () => {
    const gone = await freshMember();
    ok(await org.owner.api.delete(`/users/${gone.id}`));
    expect((await members(org.member)).find((user) => user.user_id === gone.id)).toMatchObject({ is_active: false });
  });

  test("refuses wrong parameter types and reports unknown parameters", async () => {
    const response = await org.member.api.get("/users", { client_gravatar: "maybe" });
    expectError(response, "BAD_REQUEST");
    expect(response.body.var_name).toBe("client_gravatar");
    expect(ok(await org.member.api.get("/users", { colour: "blue" })).ignored_parameters_unsupported).toEqual(["colour"]);
  });

  test("refuses the unauthenticated", async () => {
    expectError(await org.anon.get("/users"), "UNAUTHORIZED", 401);
  });
});

describe("GET /users/{user_id} and GET /users/{email}", () => {
  test("returns one user by ID, bots and system bots too", async () => {
    const body = ok(await org.guest.api.get(`/users/${org.moderator.id}`));
    expect(Object.keys(body.user).sort()).toEqual(USER_FIELDS);
    expect(body.user).toMatchObject({ user_id: org.moderator.id, role: 300, full_name: "Mona Moderator" });
    expect((await member(org.bot.id, org.guest)).is_bot).toBe(true);
    expect((await member(notificationBotId, org.member)).full_name).toBe("Notification Bot");
  });

  test("returns one user by e-mail address, in any letter case, URL-encoded or not", async () => {
    expect(ok(await org.member.api.get(`/users/${org.admin.email.toUpperCase()}`)).user.user_id).toBe(org.admin.id);
    expect(ok(await org.member.api.get(`/users/${encodeURIComponent(org.bot.email)}`)).user.user_id).toBe(org.bot.id);
    expect(ok(await org.member.api.get(`/users/user${org.guest.id}@${REALM_HOST}`)).user.user_id).toBe(org.guest.id);
  });

  test("returns deactivated users", async () => {
    const gone = await freshMember();
    ok(await org.owner.api.delete(`/users/${gone.id}`));
    expect((await member(gone.id, org.member)).is_active).toBe(false);
  });

  test("answers unknown IDs and addresses with BAD_REQUEST 'No such user'", async () => {
    for (const key of ["999999", "0", "nobody@example.com", "abc", "user999999@localhost"]) {
      const response = await org.member.api.get(`/users/${key}`);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("No such user");
    }
    expectError(await org.member.api.get(`/users/${"x".repeat(300)}@example.com`), "BAD_REQUEST");
  });

  describe("when the target restricts who sees their address to administrators", () => {
    let private_: Person;
    beforeAll(async () => {
      private_ = await freshMember();
      editServerDatabase(
        org.server,
        {
          sqlite: "UPDATE users SET settings = json_set(settings, '$.email_address_visibility', 3) WHERE id = ?",
          postgres: "UPDATE users SET settings = jsonb_set(settings, '{email_address_visibility}', '3') WHERE id = ?",
        },
        private_.id,
      );
    });

    test("others see a stand-in address, no delivery_email and a real avatar URL", async () => {
      const seen = ok(await org.member.api.get(`/users/${private_.id}`)).user;
      expect(seen).toMatchObject({ email: `user${private_.id}@${REALM_HOST}`, delivery_email: null });
      expect(seen.avatar_url).toStartWith("https://secure.gravatar.com/");
      const listed = (await members(org.moderator)).find((user) => user.user_id === private_.id);
      expect(listed).toMatchObject({ email: `user${private_.id}@${REALM_HOST}`, delivery_email: null });
    });

    test("administrators and the person themselves see the real address", async () => {
      expect(await member(private_.id, org.admin)).toMatchObject({ email: private_.email, delivery_email: private_.email });
      expect(ok(await private_.api.get("/users/me"))).toMatchObject({ email: private_.email, delivery_email: private_.email });
    });

    test("the real address finds them only for those allowed to see it; the stand-in always", async () => {
      expectError(await org.member.api.get(`/users/${private_.email}`), "BAD_REQUEST");
      expect(ok(await org.admin.api.get(`/users/${private_.email}`)).user.user_id).toBe(private_.id);
      expect(ok(await org.member.api.get(`/users/user${private_.id}@${REALM_HOST}`)).user.user_id).toBe(private_.id);
    });
  });
});

describe("when guests may not see everyone (can_access_all_users_group is role:members)", () => {
  beforeAll(() => setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:members")));
  afterAll(() => setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:everyone")));

  test("a guest's list shows others as 'Unknown user', but themselves and bots as they are", async () => {
    const list = await members(org.guest);
    const byId = new Map(list.map((user) => [user.user_id, user]));
    expect(byId.get(org.member.id)).toMatchObject({ full_name: "Unknown user", email: `user${org.member.id}@${REALM_HOST}`, delivery_email: null, role: 400 });
    expect(byId.get(org.guest.id)).toMatchObject({ full_name: "Gus Guest", email: org.guest.email });
    expect(byId.get(org.bot.id)).toMatchObject({ full_name: "Helper Bot", is_bot: true });
  });

  test("a guest cannot look up a hidden user by ID or address", async () => {
    for (const key of [String(org.member.id), org.member.email, `user${org.member.id}@${REALM_HOST}`]) {
      const response = await org.guest.api.get(`/users/${key}`);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain("Insufficient permission");
    }
    expect((await member(org.bot.id, org.guest)).full_name).toBe("Helper Bot");
  });

  test("members still see everyone", async () => {
    expect((await members(org.member)).find((user) => user.user_id === org.guest.id).full_name).toBe("Gus Guest");
  });
});

describe("GET /users/me", () => {
  test("describes the caller, for every role", async () => {
    for (const [person, role] of [[org.owner, 100], [org.admin, 200], [org.moderator, 300], [org.member, 400], [org.guest, 600]] as const) {
      const me = ok(await person.api.get("/users/me"));
      expect(me).toMatchObject({ user_id: person.id, email: person.email, delivery_email: person.email, role, is_bot: false, profile_data: {} });
      expect(me.avatar_url).toStartWith("https://secure.gravatar.com/avatar/");
    }
  });

  test("describes a bot without profile_data", async () => {
    const me = ok(await org.bot.api.get("/users/me"));
    expect(me).toMatchObject({ user_id: org.bot.id, is_bot: true, bot_type: 1, bot_owner_id: org.member.id });
    expect("profile_data" in me).toBe(false);
  });
});

describe("POST /users", () => {
  test("lets an administrator create a member who can then log in", async () => {
    const body = ok(await org.admin.api.post("/users", { email: "New.Person@Example.com", password: "a-good-password", full_name: "  New Person  " }));
    expect(body.user_id).toBeGreaterThan(0);
    const person = await login(org.anon, "new.person@example.com", "a-good-password");
    expect(person.id).toBe(body.user_id);
    expect(await member(body.user_id)).toMatchObject({ full_name: "New Person", role: 400, is_active: true, is_bot: false });
  });

  test("lets an owner create users too", async () => {
    const body = ok(await org.owner.api.post("/users", { email: "by.owner@example.com", password: "a-good-password", full_name: "By Owner" }));
    expect((await member(body.user_id)).email).toBe("by.owner@example.com");
  });

  for (const role of ["moderator", "member", "guest", "bot"] as const) {
    test(`refuses a ${role}, saying why, and creates nobody`, async () => {
      const email = `refused.${role}@example.com`;
      const response = await org[role].api.post("/users", { email, password: "a-good-password", full_name: "Refused Person" });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain("Only organization administrators");
      expectError(await org.member.api.get(`/users/${email}`), "BAD_REQUEST");
    });
  }

  test("refuses an address already in use, in any letter case, and changes nothing", async () => {
    const before = (await members()).length;
    const response = await org.admin.api.post("/users", { email: org.member.email.toUpperCase(), password: "a-good-password", full_name: "Mel Again" });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toContain("already in use");
    expect((await members()).length).toBe(before);
    expect((await member(org.member.id)).full_name).toBe("Mel Member");
  });

  test("refuses invalid addresses, names and passwords, creating nobody", async () => {
    const before = (await members()).length;
    const good = { email: "valid.person@example.com", password: "a-good-password", full_name: "Valid Person" };
    const bad: Array<[Record<string, string>, string]> = [
      [{ email: "no-at-sign" }, "Invalid email"],
      [{ email: "two@@example.com" }, "Invalid email"],
      [{ email: "space in@example.com" }, "Invalid email"],
      [{ email: "someone@nodot" }, "Invalid email"],
      [{ email: "" }, "Invalid email"],
      [{ full_name: " " }, "Name too short"],
      [{ full_name: "x".repeat(101) }, "Name too long"],
      [{ full_name: "Star*Name" }, "Invalid characters"],
      [{ full_name: "Ambiguous|15" }, "Invalid name"],
      [{ password: "short" }, "too weak"],
    ];
    for (const [change, message] of bad) {
      const response = await org.admin.api.post("/users", { ...good, ...change });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain(message);
    }
    expect((await members()).length).toBe(before);
  });

  test("refuses missing and oversized parameters", async () => {
    const missing = await org.admin.api.post("/users", { email: "a.b@example.com", password: "a-good-password" });
    expectError(missing, "BAD_REQUEST");
    expect(missing.body.var_name).toBe("full_name");
    expectError(await org.admin.api.post("/users", { email: `${"a".repeat(5000)}@example.com`, password: "a-good-password", full_name: "Big" }), "BAD_REQUEST");
    expectError(await org.admin.api.post("/users", { email: "c.d@example.com", password: "p".repeat(5000), full_name: "Big" }), "BAD_REQUEST");
  });
});

describe("PATCH /users/{user_id}", () => {
  test("lets an administrator rename someone (trimmed) and change their role", async () => {
    const person = await freshMember();
    expect(ok(await org.admin.api.patch(`/users/${person.id}`, { full_name: "  Renamed Person ", role: 300 }))).toEqual({ result: "success", msg: "" });
    expect(await member(person.id)).toMatchObject({ full_name: "Renamed Person", role: 300, is_admin: false });
    ok(await org.admin.api.patch(`/users/${person.id}`, { role: 600 }));
    expect(await member(person.id)).toMatchObject({ role: 600, is_guest: true });
  });

  for (const role of ["moderator", "member", "guest", "bot"] as const) {
    test(`refuses a ${role}, saying why, and changes nothing`, async () => {
      const response = await org[role].api.patch(`/users/${org.member2.id}`, { full_name: "Hijacked", role: 200 });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain("Only organization administrators");
      expect(await member(org.member2.id)).toMatchObject({ full_name: "Max Member", role: 400 });
      // Not even for themselves.
      expectError(await org[role].api.patch(`/users/${org[role].id}`, { role: 200 }), "BAD_REQUEST");
      expect((await member(org[role].id)).role).not.toBe(200);
    });
  }

  test("lets only owners make or unmake owners", async () => {
    const person = await freshMember();
    const promote = await org.admin.api.patch(`/users/${person.id}`, { role: 100 });
    expectError(promote, "UNAUTHORIZED_PRINCIPAL");
    expect(promote.body.msg).toBe("Must be an organization owner");
    expect((await member(person.id)).role).toBe(400);

    ok(await org.owner.api.patch(`/users/${person.id}`, { role: 100 }));
    expect(await member(person.id)).toMatchObject({ role: 100, is_owner: true, is_admin: true });
    const demote = await org.admin.api.patch(`/users/${person.id}`, { role: 400 });
    expectError(demote, "UNAUTHORIZED_PRINCIPAL");
    expect(demote.body.msg).toBe("Must be an organization owner");
    ok(await org.owner.api.patch(`/users/${person.id}`, { role: 400 }));
    expect((await member(person.id)).role).toBe(400);
  });

  test("lets an administrator rename an owner without touching the role", async () => {
    ok(await org.admin.api.patch(`/users/${org.owner.id}`, { full_name: "Olivia Renamed" }));
    expect((await member(org.owner.id)).full_name).toBe("Olivia Renamed");
    ok(await org.admin.api.patch(`/users/${org.owner.id}`, { full_name: "Olivia Owner" }));
  });

  test("keeps the last owner an owner", async () => {
    const response = await org.owner.api.patch(`/users/${org.owner.id}`, { role: 200 });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toContain("only organization owner");
    expect((await member(org.owner.id)).role).toBe(100);

    const second = await freshMember(100);
    ok(await org.owner.api.patch(`/users/${second.id}`, { role: 200 }));
    expect((await member(second.id)).role).toBe(200);
  });

  test("lets an owner step down once another owner exists", async () => {
    const first = await freshMember(100);
    const second = await freshMember(100);
    ok(await first.api.patch(`/users/${first.id}`, { role: 400 }));
    expect((await member(first.id)).role).toBe(400);
    ok(await second.api.patch(`/users/${second.id}`, { role: 400 }));
    expect((await member(org.owner.id)).role).toBe(100);
  });

  test("changes bots' roles, but never makes a bot an owner", async () => {
    ok(await org.admin.api.patch(`/users/${org.bot.id}`, { role: 300 }));
    expect((await member(org.bot.id)).role).toBe(300);
    const response = await org.owner.api.patch(`/users/${org.bot.id}`, { role: 100 });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toContain("Bots cannot be organization owners");
    ok(await org.admin.api.patch(`/users/${org.bot.id}`, { role: 400 }));
    expect((await member(org.bot.id)).role).toBe(400);
  });

  test("refuses to change system bots", async () => {
    expectError(await org.owner.api.patch(`/users/${notificationBotId}`, { full_name: "Renamed Bot" }), "BAD_REQUEST");
    expect((await member(notificationBotId)).full_name).toBe("Notification Bot");
  });

  test("refuses invalid roles, names and user IDs, changing nothing", async () => {
    const target = `/users/${org.member2.id}`;
    for (const role of [0, 150, 500, 700, -100]) {
      const response = await org.owner.api.patch(target, { role });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain("Invalid role");
    }
    for (const role of ["admin", "1e99x", ""]) expectError(await org.owner.api.patch(target, { role }), "BAD_REQUEST");
    for (const full_name of ["", "x", "y".repeat(101), "Back\\slash", "x".repeat(5000)]) expectError(await org.owner.api.patch(target, { full_name }), "BAD_REQUEST");
    // An invalid part refuses the whole change.
    expectError(await org.owner.api.patch(target, { full_name: "Valid Name", role: 999 }), "BAD_REQUEST");
    expect(await member(org.member2.id)).toMatchObject({ full_name: "Max Member", role: 400 });

    const unknown = await org.owner.api.patch("/users/999999", { full_name: "Nobody Here" });
    expectError(unknown, "BAD_REQUEST");
    expect(unknown.body.msg).toBe("No such user");
    expectError(await org.owner.api.patch("/users/not-a-number", { full_name: "Nobody Here" }), "BAD_REQUEST");
  });

  test("reports parameters it does not support and leaves them alone", async () => {
    const body = ok(await org.admin.api.patch(`/users/${org.member2.id}`, { new_email: "moved@example.com", profile_data: [{ id: 1, value: "x" }] }));
    expect(body.ignored_parameters_unsupported.sort()).toEqual(["new_email", "profile_data"]);
    expect((await member(org.member2.id)).email).toBe(org.member2.email);
  });
});
