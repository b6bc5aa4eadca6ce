import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, setRealmSetting, systemGroupId, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";

/* Creating, listing, updating (spec 4.7), deactivating and reactivating user groups (spec 2.9). */

let org: Org;
let roles: Record<string, number>;
beforeAll(async () => {
  org = await seedOrg();
  roles = Object.fromEntries(["internet", "everyone", "members", "fullmembers", "moderators", "administrators", "owners", "nobody"].map((name) => [name, systemGroupId(org.server, `role:${name}`)]));
}, 60_000);
afterAll(() => org.server.dispose());

async function create(person: Person, params: Record<string, unknown> = {}): Promise<number> {
  return ok(await person.api.post("/user_groups/create", { name: uniqueName("group"), description: "", members: [], ...params })).group_id;
}

async function listGroups(params: Record<string, unknown> = {}): Promise<any[]> {
  return ok(await org.owner.api.get("/user_groups", params)).user_groups;
}
const groupById = async (id: number, params: Record<string, unknown> = { include_deactivated_groups: true }) => (await listGroups(params)).find((group) => group.id === id);
const groupCount = () => queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM user_groups")[0].n;

describe("POST /user_groups/create", () => {
  test("creates a group with its members, subgroups and the reference's default settings", async () => {
    const sub = await create(org.member, { members: [org.member2.id] });
    const name = uniqueName("designers");
    const before = Math.floor(Date.now() / 1000);
    const response = ok(await org.member.api.post("/user_groups/create", { name, description: "They design", members: [org.member.id, org.guest.id, org.bot.id], subgroups: [sub] }));
    expect(Object.keys(response).sort()).toEqual(["group_id", "msg", "result"]);
    expect(await groupById(response.group_id)).toEqual({
      id: response.group_id,
      name,
      description: "They design",
      date_created: expect.any(Number),
      creator_id: org.member.id,
      members: [org.member.id, org.guest.id, org.bot.id].sort((a, b) => a - b),
      direct_subgroup_ids: [sub],
      is_system_group: false,
      deactivated: false,
      can_add_members_group: { direct_members: [org.member.id], direct_subgroups: [] },
      can_join_group: roles.nobody,
      can_leave_group: roles.everyone,
      can_manage_group: { direct_members: [org.member.id], direct_subgroups: [] },
      can_mention_group: roles.everyone,
      can_remove_members_group: roles.nobody,
    });
    expect((await groupById(response.group_id)).date_created).toBeGreaterThanOrEqual(before);
  });

  test("takes each permission setting, as an ID or an anonymous value", async () => {
    const id = await create(org.member, {
      can_add_members_group: roles.moderators,
      can_join_group: roles.members,
      can_leave_group: roles.nobody,
      can_manage_group: { direct_members: [org.member2.id], direct_subgroups: [roles.administrators] },
      can_mention_group: { direct_members: [], direct_subgroups: [roles.moderators] },
      can_remove_members_group: roles.administrators,
    });
    expect(await groupById(id)).toMatchObject({
      can_add_members_group: roles.moderators,
      can_join_group: roles.members,
      can_leave_group: roles.nobody,
      can_manage_group: { direct_members: [org.member2.id], direct_subgroups: [roles.administrators] },
      can_mention_group: roles.moderators,
      can_remove_members_group: roles.administrators,
    });
  });

  test("refuses forbidden values: can_manage_group role:internet/everyone, can_mention_group role:internet/owners", async () => {
    const before = groupCount();
    for (const [setting, value] of [
      ["can_manage_group", roles.internet],
      ["can_manage_group", roles.everyone],
      ["can_mention_group", roles.internet],
      ["can_mention_group", roles.owners],
      ["can_join_group", roles.everyone],
      ["can_leave_group", roles.internet],
    ] as const) {
      const response = await org.owner.api.post("/user_groups/create", { name: uniqueName(), description: "", members: [], [setting]: value });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain(`'${setting}' setting cannot be set to`);
    }
    expect(groupCount()).toBe(before);
  });

  test("refuses bad members, subgroups, setting values and names, creating nothing", async () => {
    const deactivatedGroup = await create(org.owner);
    ok(await org.owner.api.post(`/user_groups/${deactivatedGroup}/deactivate`));
    const taken = uniqueName("Taken");
    await create(org.owner, { name: taken });
    const before = groupCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ members: [999999] }, "Invalid user ID: 999999"],
      [{ subgroups: [999999] }, "Invalid user group ID: 999999"],
      [{ subgroups: [deactivatedGroup] }, `User group ${deactivatedGroup} is deactivated and cannot be a subgroup.`],
      [{ can_mention_group: deactivatedGroup }, "is deactivated and cannot be used in a permission setting"],
      [{ can_manage_group: { direct_members: [], direct_subgroups: [deactivatedGroup] } }, "is deactivated"],
      [{ can_manage_group: { direct_members: [999999], direct_subgroups: [] } }, "Invalid user ID: 999999"],
      [{ can_manage_group: 999999 }, "Invalid user group ID: 999999"],
      [{ name: "   " }, "User group name can't be empty!"],
      [{ name: "x".repeat(101) }, "User group name cannot exceed 100 characters."],
      [{ name: "role:mine" }, "User group name cannot start with 'role:'."],
      [{ name: "@mine" }, "User group name cannot start with '@'."],
      [{ name: taken.toUpperCase() }, `User group '${taken.toUpperCase()}' already exists.`],
      [{ description: "d".repeat(1025) }, "User group description cannot exceed 1024 characters."],
    ];
    for (const [params, message] of cases) {
      const response = await org.owner.api.post("/user_groups/create", { name: uniqueName(), description: "", members: [], ...params });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain(message);
    }
    expectError(await org.owner.api.post("/user_groups/create", { name: uniqueName(), description: "", members: "[1," }), "BAD_REQUEST");
    expectError(await org.owner.api.post("/user_groups/create", { name: uniqueName(), description: "" }), "BAD_REQUEST");
    expectError(await org.owner.api.post("/user_groups/create", { name: "n".repeat(5000), description: "", members: [] }), "BAD_REQUEST");
    expectError(await org.owner.api.post("/user_groups/create", { name: uniqueName(), description: "", members: [], can_mention_group: "not json" }), "BAD_REQUEST");
    expect(groupCount()).toBe(before);
  });

  test("needs the realm's can_create_groups: guests never, others as the setting says", async () => {
    const refused = await org.guest.api.post("/user_groups/create", { name: uniqueName(), description: "", members: [] });
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toBe("Insufficient permission");
    setRealmSetting(org.server, "can_create_groups", roles.moderators);
    try {
      for (const person of [org.member, org.member2, org.bot, org.guest]) {
        expectError(await person.api.post("/user_groups/create", { name: uniqueName(), description: "", members: [] }), "BAD_REQUEST");
      }
      for (const person of [org.moderator, org.admin, org.owner]) await create(person);
    } finally {
      setRealmSetting(org.server, "can_create_groups", roles.members);
    }
    setRealmSetting(org.server, "can_create_groups", roles.everyone);
    try {
      // role:everyone does not reach guests for a realm permission.
      expectError(await org.guest.api.post("/user_groups/create", { name: uniqueName(), description: "", members: [] }), "BAD_REQUEST");
    } finally {
      setRealmSetting(org.server, "can_create_groups", roles.members);
    }
  });
});

describe("GET /user_groups", () => {
  test("lists system and user groups; deactivated ones only with include_deactivated_groups", async () => {
    const active = await create(org.member);
    const gone = await create(org.member);
    ok(await org.member.api.post(`/user_groups/${gone}/deactivate`));
    const plain = await listGroups();
    expect(plain.map((group) => group.id)).toContain(active);
    expect(plain.map((group) => group.id)).not.toContain(gone);
    expect(plain.find((group) => group.name === "role:members")).toMatchObject({ id: roles.members, is_system_group: true, direct_subgroup_ids: [roles.fullmembers] });
    const all = await listGroups({ include_deactivated_groups: true });
    expect(all.find((group) => group.id === gone)).toMatchObject({ deactivated: true });
    expect(all.map((group) => group.id)).toEqual([...all.map((group) => group.id)].sort((a, b) => a - b));
    expect(all.some((group) => group.name === null)).toBe(false);
  });

  test("is for members: guests and bots are refused", async () => {
    for (const person of [org.moderator, org.member, org.admin]) ok(await person.api.get("/user_groups"));
    for (const person of [org.guest, org.bot]) expectError(await person.api.get("/user_groups"), "BAD_REQUEST");
    expectError(await org.member.api.get("/user_groups", { include_deactivated_groups: "maybe" }), "BAD_REQUEST");
  });
});

describe("PATCH /user_groups/{id}", () => {
  test("changes name and description", async () => {
    const id = await create(org.member);
    const name = uniqueName("renamed");
    const response = ok(await org.member.api.patch(`/user_groups/${id}`, { name, description: "new words" }));
    expect(response).toEqual({ result: "success", msg: "" });
    expect(await groupById(id)).toMatchObject({ name, description: "new words" });
  });

  test("changes a setting with {new}, and with {new, old} when old matches", async () => {
    const id = await create(org.member);
    ok(await org.member.api.patch(`/user_groups/${id}`, { can_mention_group: { new: roles.moderators } }));
    ok(await org.member.api.patch(`/user_groups/${id}`, { can_mention_group: { new: { direct_members: [org.member2.id], direct_subgroups: [roles.moderators] }, old: roles.moderators } }));
    expect((await groupById(id)).can_mention_group).toEqual({ direct_members: [org.member2.id], direct_subgroups: [roles.moderators] });
    // old is compared as a set, whatever order the client lists it in
    ok(await org.member.api.patch(`/user_groups/${id}`, { can_join_group: { new: roles.members, old: roles.nobody }, can_mention_group: { new: roles.everyone, old: { direct_members: [org.member2.id], direct_subgroups: [roles.moderators] } } }));
    expect(await groupById(id)).toMatchObject({ can_join_group: roles.members, can_mention_group: roles.everyone });
  });

  test("a mismatched old is an error and changes nothing, not even the other fields", async () => {
    const id = await create(org.member, { description: "kept" });
    const response = await org.member.api.patch(`/user_groups/${id}`, { description: "lost", can_mention_group: { new: roles.moderators, old: roles.administrators } });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("'old' value does not match the expected value.");
    expect(await groupById(id)).toMatchObject({ description: "kept", can_mention_group: roles.everyone });
  });

  test("refuses forbidden and unusable values", async () => {
    const id = await create(org.member);
    const gone = await create(org.member);
    ok(await org.member.api.post(`/user_groups/${gone}/deactivate`));
    for (const [setting, value] of [
      ["can_manage_group", roles.internet],
      ["can_manage_group", roles.everyone],
      ["can_mention_group", roles.internet],
      ["can_mention_group", roles.owners],
      ["can_add_members_group", roles.everyone],
      ["can_mention_group", gone],
      ["can_manage_group", { direct_members: [org.member.id], direct_subgroups: [gone] }],
      ["can_mention_group", 999999],
    ] as const) {
      expectError(await org.member.api.patch(`/user_groups/${id}`, { [setting]: { new: value } }), "BAD_REQUEST");
    }
    expect(await groupById(id)).toMatchObject({ can_mention_group: roles.everyone, can_manage_group: { direct_members: [org.member.id], direct_subgroups: [] } });
  });

  test("can_mention_group takes only the {new, old} form; nothing to change is an error", async () => {
    const id = await create(org.member);
    expectError(await org.member.api.patch(`/user_groups/${id}`, { can_mention_group: roles.moderators }), "BAD_REQUEST");
    expectError(await org.member.api.patch(`/user_groups/${id}`, { can_mention_group: { old: roles.everyone } }), "BAD_REQUEST");
    const empty = await org.member.api.patch(`/user_groups/${id}`, {});
    expectError(empty, "BAD_REQUEST");
    expect(empty.body.msg).toBe("No new data supplied");
    expect((await groupById(id)).can_mention_group).toBe(roles.everyone);
  });

  test("an unknown group is BAD_REQUEST 'Invalid user group'; system groups cannot be changed", async () => {
    for (const id of [999999, roles.members]) {
      const response = await org.owner.api.patch(`/user_groups/${id}`, { description: "x" });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe(id === 999999 ? "Invalid user group" : "Insufficient permission");
    }
    expect((await groupById(roles.members)).description).not.toBe("x");
    expectError(await org.owner.api.post(`/user_groups/${roles.members}/members`, { add: [org.member.id] }), "BAD_REQUEST");
    expectError(await org.owner.api.post(`/user_groups/${roles.moderators}/deactivate`), "BAD_REQUEST");
    expectError(await org.owner.api.post(`/user_groups/${roles.moderators}/subgroups`, { add: [roles.owners] }), "BAD_REQUEST");
    expectError(await org.owner.api.patch("/user_groups/abc", { description: "x" }), "BAD_REQUEST");
  });

  test("renaming to a name already taken, in any case, is refused", async () => {
    const first = uniqueName("First");
    await create(org.member, { name: first });
    const second = await create(org.member);
    const response = await org.member.api.patch(`/user_groups/${second}`, { name: first.toLowerCase() });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toContain("already exists");
    // A change of case of one's own name is fine.
    const own = (await groupById(second)).name as string;
    ok(await org.member.api.patch(`/user_groups/${second}`, { name: own.toUpperCase() }));
  });

  test("managers may change it: can_manage_group, or can_manage_all_groups; nobody else", async () => {
    const id = await create(org.member);
    // By default the creator manages the group and owners manage all groups.
    for (const person of [org.admin, org.moderator, org.member2, org.guest, org.bot]) {
      const refused = await person.api.patch(`/user_groups/${id}`, { description: "x" });
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe("Insufficient permission");
    }
    ok(await org.owner.api.patch(`/user_groups/${id}`, { description: "by the owner" }));
    ok(await org.member.api.patch(`/user_groups/${id}`, { description: "by the creator" }));
    setRealmSetting(org.server, "can_manage_all_groups", roles.administrators);
    try {
      ok(await org.admin.api.patch(`/user_groups/${id}`, { description: "by an admin" }));
      expectError(await org.moderator.api.patch(`/user_groups/${id}`, { description: "x" }), "BAD_REQUEST");
    } finally {
      setRealmSetting(org.server, "can_manage_all_groups", roles.owners);
    }
    // A guest named in can_manage_group still may not: the setting does not allow role:everyone.
    ok(await org.member.api.patch(`/user_groups/${id}`, { can_manage_group: { new: { direct_members: [org.member.id, org.guest.id, org.member2.id], direct_subgroups: [] } } }));
    expectError(await org.guest.api.patch(`/user_groups/${id}`, { description: "x" }), "BAD_REQUEST");
    ok(await org.member2.api.patch(`/user_groups/${id}`, { description: "by member2" }));
    expect((await groupById(id)).description).toBe("by member2");
  });
});

describe("deactivating and reactivating", () => {
  test("a deactivated group stays editable but cannot be used in a permission until reactivated", async () => {
    const id = await create(org.member);
    const other = await create(org.member);
    const response = ok(await org.member.api.post(`/user_groups/${id}/deactivate`));
    expect(response).toEqual({ result: "success", msg: "" });
    ok(await org.member.api.patch(`/user_groups/${id}`, { description: "still editable", can_join_group: { new: roles.members } }));
    ok(await org.member.api.post(`/user_groups/${id}/members`, { add: [org.member2.id] }));
    expectError(await org.member.api.patch(`/user_groups/${other}`, { can_mention_group: { new: id } }), "BAD_REQUEST");
    expectError(await org.member.api.post(`/user_groups/${other}/subgroups`, { add: [id] }), "BAD_REQUEST");
    const again = await org.member.api.post(`/user_groups/${id}/deactivate`);
    expectError(again, "BAD_REQUEST");
    expect(again.body.msg).toBe("User group is already deactivated.");

    ok(await org.member.api.patch(`/user_groups/${id}`, { deactivated: false }));
    expect(await groupById(id)).toMatchObject({ deactivated: false, description: "still editable", members: [org.member2.id] });
    ok(await org.member.api.patch(`/user_groups/${other}`, { can_mention_group: { new: id } }));
    const notDeactivated = await org.member.api.patch(`/user_groups/${id}`, { deactivated: false });
    expectError(notDeactivated, "BAD_REQUEST");
    expect(notDeactivated.body.msg).toBe("User group is not deactivated.");
  });

  test("PATCH deactivated=true deactivates as the deactivate endpoint does", async () => {
    const id = await create(org.member);
    ok(await org.member.api.patch(`/user_groups/${id}`, { deactivated: true, description: "before leaving" }));
    expect(await groupById(id)).toMatchObject({ deactivated: true, description: "before leaving" });
  });

  test("a group in use cannot be deactivated; the objections say where", async () => {
    const used = await create(org.owner);
    const supergroup = await create(org.owner, { subgroups: [used] });
    const user = await create(org.owner, { can_mention_group: used, can_manage_group: { direct_members: [org.owner.id], direct_subgroups: [used] } });
    const channel = await createChannel(org, org.owner, { can_send_message_group: used });
    setRealmSetting(org.server, "can_create_groups", used);
    try {
      const response = await org.owner.api.post(`/user_groups/${used}/deactivate`);
      expectError(response, "CANNOT_DEACTIVATE_GROUP_IN_USE");
      expect(response.body.msg).toBe("Cannot deactivate user group in use.");
      expect(response.body.objections).toEqual([
        { type: "subgroup", supergroup_ids: [supergroup] },
        { type: "realm", settings: ["can_create_groups"] },
        { type: "channel", channel_id: channel, settings: ["can_send_message_group"] },
        { type: "user_group", group_id: user, settings: ["can_manage_group", "can_mention_group"] },
      ]);
    } finally {
      setRealmSetting(org.server, "can_create_groups", roles.members);
    }
    expect((await groupById(used)).deactivated).toBe(false);
    // Uses by deactivated groups do not count.
    ok(await org.owner.api.post(`/user_groups/${supergroup}/subgroups`, { delete: [used] }));
    ok(await org.owner.api.post(`/user_groups/${user}/deactivate`));
    ok(await org.owner.api.patch(`/streams/${channel}`, { can_send_message_group: { new: roles.everyone } }));
    ok(await org.owner.api.post(`/user_groups/${used}/deactivate`));
  });

  test("only managers deactivate and reactivate; unknown groups are 'Invalid user group'", async () => {
    const id = await create(org.member);
    for (const person of [org.admin, org.moderator, org.member2, org.guest, org.bot]) {
      expectError(await person.api.post(`/user_groups/${id}/deactivate`), "BAD_REQUEST");
    }
    expect((await groupById(id)).deactivated).toBe(false);
    ok(await org.member.api.post(`/user_groups/${id}/deactivate`));
    for (const person of [org.admin, org.moderator, org.member2, org.guest, org.bot]) {
      expectError(await person.api.patch(`/user_groups/${id}`, { deactivated: false }), "BAD_REQUEST");
    }
    expect((await groupById(id)).deactivated).toBe(true);
    const unknown = await org.owner.api.post("/user_groups/999999/deactivate");
    expectError(unknown, "BAD_REQUEST");
    expect(unknown.body.msg).toBe("Invalid user group");
  });
});
