import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, deactivateUser, queryServer, systemGroupId, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, send, sendOk, storedFlags } from "../helpers/sending";

/* Members and subgroups of user groups: changing them, reading them, and mentioning groups. */

let org: Org;
let roles: Record<string, number>;
beforeAll(async () => {
  org = await seedOrg();
  roles = Object.fromEntries(["everyone", "members", "fullmembers", "moderators", "administrators", "owners", "nobody"].map((name) => [name, systemGroupId(org.server, `role:${name}`)]));
}, 60_000);
afterAll(() => org.server.dispose());

async function create(person: Person, params: Record<string, unknown> = {}): Promise<number> {
  return ok(await person.api.post("/user_groups/create", { name: uniqueName("group"), description: "", members: [], ...params })).group_id;
}
const directMembers = async (id: number) => ok(await org.owner.api.get(`/user_groups/${id}/members`, { direct_member_only: true })).members;
const directSubgroups = async (id: number) => ok(await org.owner.api.get(`/user_groups/${id}/subgroups`, { direct_subgroup_only: true })).subgroups;
const setting = (creator: Person, name: string, value: unknown) => ({ [name]: value, can_manage_group: { direct_members: [creator.id], direct_subgroups: [] } });

describe("POST /user_groups/{id}/members", () => {
  test("adds and removes members in one call", async () => {
    const id = await create(org.member, { members: [org.member.id, org.moderator.id] });
    const response = ok(await org.member.api.post(`/user_groups/${id}/members`, { add: [org.member2.id, org.guest.id], delete: [org.moderator.id] }));
    expect(response).toEqual({ result: "success", msg: "" });
    expect(await directMembers(id)).toEqual([org.member.id, org.member2.id, org.guest.id].sort((a, b) => a - b));
  });

  test("adds and removes subgroups too (add_subgroups, delete_subgroups)", async () => {
    const sub = await create(org.member);
    const id = await create(org.member);
    ok(await org.member.api.post(`/user_groups/${id}/members`, { add_subgroups: [sub] }));
    expect(await directSubgroups(id)).toEqual([sub]);
    ok(await org.member.api.post(`/user_groups/${id}/members`, { delete_subgroups: [sub] }));
    expect(await directSubgroups(id)).toEqual([]);
  });

  test("refuses existing members, non-members, unknown and deactivated users, changing nothing", async () => {
    const gone = ok(await org.owner.api.post("/users", { email: `${uniqueName("gone")}@example.com`, password: "gone-password", full_name: "Gone Person" })).user_id;
    const id = await create(org.member, { members: [org.member.id, gone] });
    await deactivateUser(org, gone);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ add: [org.member.id] }, `User ${org.member.id} is already a member of this group`],
      [{ add: [org.member2.id, org.member.id] }, `User ${org.member.id} is already a member of this group`],
      [{ delete: [org.member2.id] }, `There is no member '${org.member2.id}' in this user group`],
      [{ add: [999999] }, "Invalid user ID: 999999"],
      [{ add: [gone] }, `Invalid user ID: ${gone}`],
      [{ delete: [gone] }, `Invalid user ID: ${gone}`],
      [{ add: [org.member2.id], delete: [org.moderator.id] }, `There is no member '${org.moderator.id}' in this user group`],
      [{}, 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'],
      [{ add: [], delete: [] }, "Nothing to do."],
    ];
    for (const [params, message] of cases) {
      const response = await org.member.api.post(`/user_groups/${id}/members`, params);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain(message);
    }
    expectError(await org.member.api.post(`/user_groups/${id}/members`, { add: "[1," }), "BAD_REQUEST");
    expectError(await org.member.api.post(`/user_groups/${id}/members`, { add: '["a"]' }), "BAD_REQUEST");
    const unknown = await org.member.api.post("/user_groups/999999/members", { add: [org.member2.id] });
    expectError(unknown, "BAD_REQUEST");
    expect(unknown.body.msg).toBe("Invalid user group");
    expect(await directMembers(id)).toEqual([org.member.id]);
  });

  test("adding others needs can_add_members_group (or managing); everyone else is refused", async () => {
    const id = await create(org.member, setting(org.member, "can_add_members_group", roles.moderators));
    for (const person of [org.member2, org.guest, org.bot]) {
      const refused = await person.api.post(`/user_groups/${id}/members`, { add: [org.admin.id] });
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe("Insufficient permission");
    }
    // Administrators act only through can_manage_all_groups (owners by default) or the group's settings.
    ok(await org.moderator.api.post(`/user_groups/${id}/members`, { add: [org.member2.id] }));
    ok(await org.admin.api.post(`/user_groups/${id}/members`, { add: [org.guest.id] }));
    ok(await org.owner.api.post(`/user_groups/${id}/members`, { add: [org.bot.id] }));
    ok(await org.member.api.post(`/user_groups/${id}/members`, { add: [org.admin.id] }));
    expect(await directMembers(id)).toEqual([org.member2.id, org.guest.id, org.bot.id, org.admin.id].sort((a, b) => a - b));
  });

  test("removing others needs can_remove_members_group (or managing)", async () => {
    const id = await create(org.member, { members: [org.member2.id, org.guest.id, org.bot.id, org.admin.id], ...setting(org.member, "can_remove_members_group", roles.administrators) });
    for (const person of [org.moderator, org.member2, org.guest, org.bot]) {
      expectError(await person.api.post(`/user_groups/${id}/members`, { delete: [org.admin.id] }), "BAD_REQUEST");
    }
    ok(await org.admin.api.post(`/user_groups/${id}/members`, { delete: [org.bot.id] }));
    ok(await org.member.api.post(`/user_groups/${id}/members`, { delete: [org.guest.id] }));
    expect(await directMembers(id)).toEqual([org.member2.id, org.admin.id].sort((a, b) => a - b));
  });

  test("joining oneself needs can_join_group (guests never) or can_add_members_group", async () => {
    const id = await create(org.member, setting(org.member, "can_join_group", roles.members));
    ok(await org.member2.api.post(`/user_groups/${id}/members`, { add: [org.member2.id] }));
    ok(await org.bot.api.post(`/user_groups/${id}/members`, { add: [org.bot.id] }));
    expectError(await org.guest.api.post(`/user_groups/${id}/members`, { add: [org.guest.id] }), "BAD_REQUEST");
    // Joining lets one add only oneself.
    expectError(await org.moderator.api.post(`/user_groups/${id}/members`, { add: [org.moderator.id, org.admin.id] }), "BAD_REQUEST");
    const closed = await create(org.member, setting(org.member, "can_join_group", roles.nobody));
    for (const person of [org.admin, org.moderator, org.member2, org.guest, org.bot]) {
      const refused = await person.api.post(`/user_groups/${closed}/members`, { add: [person.id] });
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe("Insufficient permission");
    }
    ok(await org.owner.api.post(`/user_groups/${closed}/members`, { add: [org.owner.id] }));
    expect(await directMembers(closed)).toEqual([org.owner.id]);
    // Whoever may add anyone may add themselves.
    const addable = await create(org.member, { can_join_group: roles.nobody, can_add_members_group: roles.moderators });
    ok(await org.moderator.api.post(`/user_groups/${addable}/members`, { add: [org.moderator.id] }));
    expect(await directMembers(id)).toEqual([org.member2.id, org.bot.id].sort((a, b) => a - b));
  });

  test("leaving oneself needs can_leave_group (role:everyone by default, guests included)", async () => {
    const id = await create(org.member, { members: [org.member2.id, org.guest.id, org.moderator.id] });
    ok(await org.member2.api.post(`/user_groups/${id}/members`, { delete: [org.member2.id] }));
    ok(await org.guest.api.post(`/user_groups/${id}/members`, { delete: [org.guest.id] }));
    expectError(await org.moderator.api.post(`/user_groups/${id}/members`, { delete: [org.moderator.id, org.member.id] }), "BAD_REQUEST");
    const sticky = await create(org.member, { members: [org.member2.id, org.moderator.id], ...setting(org.member, "can_leave_group", roles.nobody) });
    for (const person of [org.member2, org.moderator]) expectError(await person.api.post(`/user_groups/${sticky}/members`, { delete: [person.id] }), "BAD_REQUEST");
    expect(await directMembers(sticky)).toEqual([org.member2.id, org.moderator.id].sort((a, b) => a - b));
    expect(await directMembers(id)).toEqual([org.moderator.id]);
  });
});

describe("POST /user_groups/{id}/subgroups", () => {
  test("adds and removes subgroups, system groups included", async () => {
    const [a, b, id] = [await create(org.member), await create(org.member), await create(org.member)];
    const response = ok(await org.member.api.post(`/user_groups/${id}/subgroups`, { add: [a, b, roles.moderators] }));
    expect(response).toEqual({ result: "success", msg: "" });
    expect(await directSubgroups(id)).toEqual([a, b, roles.moderators].sort((x, y) => x - y));
    ok(await org.member.api.post(`/user_groups/${id}/subgroups`, { delete: [a, roles.moderators] }));
    expect(await directSubgroups(id)).toEqual([b]);
  });

  test("refuses cycles, at any depth, and the group itself", async () => {
    const top = await create(org.member);
    const middle = await create(org.member);
    const bottom = await create(org.member);
    ok(await org.member.api.post(`/user_groups/${top}/subgroups`, { add: [middle] }));
    ok(await org.member.api.post(`/user_groups/${middle}/subgroups`, { add: [bottom] }));
    for (const [group, sub] of [
      [bottom, top],
      [middle, top],
      [bottom, middle],
      [top, top],
    ]) {
      const response = await org.member.api.post(`/user_groups/${group}/subgroups`, { add: [sub] });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe(`User group ${group} is already a subgroup of one of the passed subgroups.`);
    }
    expect(await directSubgroups(bottom)).toEqual([]);
    expect(ok(await org.member.api.get(`/user_groups/${top}/subgroups`)).subgroups).toEqual([middle, bottom].sort((a, b) => a - b));
  });

  test("refuses existing, missing, unknown and deactivated subgroups, changing nothing", async () => {
    const sub = await create(org.member);
    const gone = await create(org.member);
    ok(await org.member.api.post(`/user_groups/${gone}/deactivate`));
    const id = await create(org.member, { subgroups: [sub] });
    const other = await create(org.member);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ add: [sub] }, `User group ${sub} is already a subgroup of this group.`],
      [{ delete: [other] }, `User group ${other} is not a subgroup of this group.`],
      [{ add: [999999] }, "Invalid user group ID: 999999"],
      [{ delete: [999999] }, "Invalid user group ID: 999999"],
      [{ add: [gone] }, `User group ${gone} is deactivated and cannot be a subgroup.`],
      [{ add: [other], delete: [gone] }, `User group ${gone} is not a subgroup of this group.`],
      [{}, 'Nothing to do. Specify at least one of "add" or "delete".'],
    ];
    for (const [params, message] of cases) {
      const response = await org.member.api.post(`/user_groups/${id}/subgroups`, params);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe(message);
    }
    expect(await directSubgroups(id)).toEqual([sub]);
  });

  test("needs can_manage_group or can_manage_all_groups; adding members does not suffice", async () => {
    const sub = await create(org.member);
    const id = await create(org.member, { can_add_members_group: roles.members });
    for (const person of [org.admin, org.moderator, org.member2, org.guest, org.bot]) {
      const refused = await person.api.post(`/user_groups/${id}/subgroups`, { add: [sub] });
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe("Insufficient permission");
    }
    ok(await org.owner.api.post(`/user_groups/${id}/subgroups`, { add: [sub] }));
    expect(await directSubgroups(id)).toEqual([sub]);
  });
});

describe("reading members and subgroups", () => {
  test("GET members: recursive by default, direct with direct_member_only; deactivated users left out", async () => {
    const gone = ok(await org.owner.api.post("/users", { email: `${uniqueName("left")}@example.com`, password: "left-password", full_name: "Left Person" })).user_id;
    const sub = await create(org.member, { members: [org.member2.id, gone] });
    const id = await create(org.member, { members: [org.member.id], subgroups: [sub] });
    await deactivateUser(org, gone);
    const recursive = ok(await org.member.api.get(`/user_groups/${id}/members`));
    expect(Object.keys(recursive).sort()).toEqual(["members", "msg", "result"]);
    expect(recursive.members).toEqual([org.member.id, org.member2.id].sort((a, b) => a - b));
    expect(ok(await org.member.api.get(`/user_groups/${id}/members`, { direct_member_only: true })).members).toEqual([org.member.id]);
    expect(ok(await org.member.api.get(`/user_groups/${roles.moderators}/members`)).members).toEqual([org.owner.id, org.admin.id, org.moderator.id].sort((a, b) => a - b));
  });

  test("GET members/{user_id}: membership, direct or through subgroups", async () => {
    const sub = await create(org.member, { members: [org.member2.id] });
    const id = await create(org.member, { members: [org.member.id], subgroups: [sub] });
    const check = async (userId: number, params = {}) => ok(await org.moderator.api.get(`/user_groups/${id}/members/${userId}`, params)).is_user_group_member;
    expect(await check(org.member.id)).toBe(true);
    expect(await check(org.member2.id)).toBe(true);
    expect(await check(org.member2.id, { direct_member_only: true })).toBe(false);
    expect(await check(org.guest.id)).toBe(false);
    const unknownUser = await org.member.api.get(`/user_groups/${id}/members/999999`);
    expectError(unknownUser, "BAD_REQUEST");
    expect(unknownUser.body.msg).toBe("No such user");
  });

  test("GET subgroups: recursive by default, direct with direct_subgroup_only", async () => {
    expect(ok(await org.member.api.get(`/user_groups/${roles.administrators}/subgroups`)).subgroups).toEqual([roles.owners]);
    expect(ok(await org.member.api.get(`/user_groups/${roles.members}/subgroups`)).subgroups).toEqual([roles.fullmembers, roles.moderators, roles.administrators, roles.owners].sort((a, b) => a - b));
    expect(ok(await org.member.api.get(`/user_groups/${roles.members}/subgroups`, { direct_subgroup_only: true })).subgroups).toEqual([roles.fullmembers]);
  });

  test("unknown groups, and the unnamed ones behind anonymous settings, are 'Invalid user group'; guests and bots may not read", async () => {
    const id = await create(org.member, { members: [org.member.id] });
    const [{ id: unnamed }] = queryServer<{ id: number }>(org.server, "SELECT id FROM user_groups WHERE name IS NULL LIMIT 1");
    for (const path of ["/user_groups/999999/members", "/user_groups/999999/subgroups", `/user_groups/999999/members/${org.member.id}`, `/user_groups/${unnamed}/members`]) {
      const response = await org.member.api.get(path);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("Invalid user group");
    }
    for (const person of [org.guest, org.bot]) {
      for (const path of [`/user_groups/${id}/members`, `/user_groups/${id}/subgroups`, `/user_groups/${id}/members/${org.member.id}`]) {
        expectError(await person.api.get(path), "BAD_REQUEST");
      }
    }
    expectError(await org.member.api.get(`/user_groups/${id}/members`, { direct_member_only: "perhaps" }), "BAD_REQUEST");
    const patchUnnamed = await org.owner.api.patch(`/user_groups/${unnamed}`, { description: "x" });
    expectError(patchUnnamed, "BAD_REQUEST");
    expect(patchUnnamed.body.msg).toBe("Invalid user group");
  });
});

describe("mentioning a group", () => {
  let channel: number;
  beforeAll(async () => {
    channel = await createChannel(org, org.owner, { principals: [org.owner.id, org.admin.id, org.moderator.id, org.member.id, org.member2.id, org.guest.id] });
  });
  const Bits = { MENTIONED: 16, GROUP_MENTIONED: 128 };

  test("obeys can_mention_group as set through the API", async () => {
    const name = uniqueName("reviewers");
    const id = await create(org.member, { name, members: [org.member2.id, org.guest.id], can_mention_group: roles.moderators });
    for (const person of [org.member, org.member2, org.guest]) {
      const refused = await send(person, channelMessage(channel, "mentions", `@*${name}* please`));
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe(`You are not allowed to mention user group '${name}'.`);
    }
    const { id: messageId } = await sendOk(org.moderator, channelMessage(channel, "mentions", `@*${name}* please`));
    const flags = storedFlags(org.server, messageId);
    expect(flags.get(org.member2.id)! & (Bits.MENTIONED | Bits.GROUP_MENTIONED)).toBe(Bits.MENTIONED | Bits.GROUP_MENTIONED);
    expect((flags.get(org.member.id) ?? 0) & Bits.MENTIONED).toBe(0);

    ok(await org.member.api.patch(`/user_groups/${id}`, { can_mention_group: { new: { direct_members: [org.member.id], direct_subgroups: [] }, old: roles.moderators } }));
    await sendOk(org.member, channelMessage(channel, "mentions", `@*${name}* now I may`));
    expectError(await send(org.moderator, channelMessage(channel, "mentions", `@*${name}* now I may not`)), "BAD_REQUEST");
  });

  test("a deactivated group is not mentionable: nobody is notified, whoever sends", async () => {
    const name = uniqueName("retired");
    const id = await create(org.member, { name, members: [org.member2.id], can_mention_group: roles.moderators });
    ok(await org.member.api.post(`/user_groups/${id}/deactivate`));
    const { id: messageId } = await sendOk(org.member, channelMessage(channel, "mentions", `@*${name}* anyone?`));
    expect((storedFlags(org.server, messageId).get(org.member2.id) ?? 0) & Bits.MENTIONED).toBe(0);
    ok(await org.member.api.patch(`/user_groups/${id}`, { deactivated: false }));
    expectError(await send(org.member, channelMessage(channel, "mentions", `@*${name}* back`)), "BAD_REQUEST");
  });
});
