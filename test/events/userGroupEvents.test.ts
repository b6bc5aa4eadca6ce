import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemGroupId, uniqueName } from "../helpers/channels";
import { type Org, type Person, ok, seedOrg } from "../helpers/seed";
import { type Event, type State, SEED_TIMEOUT_MS, pending, pendingOf } from "./support";

/*
 * user_group events: each change reaches every active user's queues; replaying them onto the
 * earlier realm_user_groups equals a fresh register, with and without include_deactivated_groups.
 */

let org: Org;
let roles: Record<string, number>;
beforeAll(async () => {
  org = await seedOrg();
  roles = Object.fromEntries(["everyone", "members", "moderators", "nobody"].map((name) => [name, systemGroupId(org.server, `role:${name}`)]));
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const withDeactivated = { client_capabilities: { include_deactivated_groups: true } };

async function register(person: Person, params: Record<string, unknown> = {}): Promise<State> {
  return ok(await person.api.post("/register", { fetch_event_types: ["realm_user_groups"], ...params }));
}

const byId = (groups: State[]) => [...groups].sort((a, b) => a.id - b.id);
const union = (a: number[], b: number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);

/** What a client does with user_group events (the reference's apply_events for this type). */
function applyUserGroupEvents(groups: State[], events: Event[]): State[] {
  let next: State[] = structuredClone(groups);
  const find = (id: number) => next.find((group) => group.id === id);
  for (const { id: _eventId, ...event } of events) {
    if (event.type !== "user_group") continue;
    const group = event.group_id === undefined ? undefined : find(event.group_id);
    if (event.op === "add") next = byId([...next.filter((each) => each.id !== event.group.id), event.group]);
    else if (event.op === "remove") next = next.filter((each) => each.id !== event.group_id);
    else if (!group) throw new Error(`event about a group the client does not know: ${JSON.stringify(event)}`);
    else if (event.op === "update") Object.assign(group, event.data);
    else if (event.op === "add_members") group.members = union(group.members, event.user_ids);
    else if (event.op === "remove_members") group.members = group.members.filter((id: number) => !event.user_ids.includes(id));
    else if (event.op === "add_subgroups") group.direct_subgroup_ids = union(group.direct_subgroup_ids, event.direct_subgroup_ids);
    else if (event.op === "remove_subgroups") group.direct_subgroup_ids = group.direct_subgroup_ids.filter((id: number) => !event.direct_subgroup_ids.includes(id));
  }
  return next;
}

interface Client {
  person: Person;
  params: Record<string, unknown>;
  state: State;
}

async function clients(): Promise<Client[]> {
  const wanted: Array<[Person, Record<string, unknown>]> = [
    [org.owner, withDeactivated],
    [org.owner, {}],
    [org.member2, withDeactivated],
    [org.guest, {}],
    [org.bot, withDeactivated],
  ];
  return Promise.all(wanted.map(async ([person, params]) => ({ person, params, state: await register(person, params) })));
}

async function expectReplayEqualsFresh(all: Client[]) {
  for (const client of all) {
    const events = await pendingOf(client.person, client.state.queue_id, ["user_group"]);
    const fresh = await register(client.person, client.params);
    expect(applyUserGroupEvents(client.state.realm_user_groups, events)).toEqual(fresh.realm_user_groups);
  }
}

const userGroupEvents = (person: Person, queueId: string) => pendingOf(person, queueId, ["user_group"]);
const create = async (person: Person, params: Record<string, unknown> = {}) =>
  ok(await person.api.post("/user_groups/create", { name: uniqueName("group"), description: "", members: [], ...params })).group_id as number;

describe("user_group events", () => {
  test("every kind of change, replayed, equals a fresh register, with and without include_deactivated_groups", async () => {
    const sub = await create(org.member);
    const all = await clients();
    const id = await create(org.member, { members: [org.member.id], subgroups: [sub] });
    ok(await org.member.api.patch(`/user_groups/${id}`, { name: uniqueName("renamed"), description: "words" }));
    ok(await org.member.api.patch(`/user_groups/${id}`, { can_mention_group: { new: { direct_members: [org.member2.id], direct_subgroups: [roles.moderators] } }, can_join_group: { new: roles.members } }));
    ok(await org.member.api.post(`/user_groups/${id}/members`, { add: [org.member2.id, org.guest.id] }));
    ok(await org.member.api.post(`/user_groups/${id}/members`, { delete: [org.member.id] }));
    ok(await org.member.api.post(`/user_groups/${id}/subgroups`, { add: [roles.moderators], delete: [sub] }));
    ok(await org.member.api.post(`/user_groups/${id}/deactivate`));
    // Changes to a deactivated group, then reactivation.
    ok(await org.member.api.patch(`/user_groups/${id}`, { description: "while away", can_leave_group: { new: roles.nobody } }));
    ok(await org.member.api.post(`/user_groups/${id}/members`, { add: [org.moderator.id] }));
    ok(await org.member.api.post(`/user_groups/${id}/subgroups`, { add: [sub] }));
    ok(await org.member.api.patch(`/user_groups/${id}`, { deactivated: false, name: uniqueName("back") }));
    ok(await org.member.api.patch(`/user_groups/${id}`, { description: "leaving again", deactivated: true }));
    await expectReplayEqualsFresh(all);
  });

  test("creation: an add event with the whole group, to every active user", async () => {
    const all = await clients();
    const name = uniqueName("fresh");
    const id = await create(org.member, { name, members: [org.member2.id] });
    for (const client of all) {
      const events = await userGroupEvents(client.person, client.state.queue_id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: "user_group", op: "add", group: { id, name, members: [org.member2.id], creator_id: org.member.id, deactivated: false } });
    }
  });

  test("each change is one event with exactly what changed", async () => {
    const id = await create(org.member);
    const [client] = await clients();
    const queue = client.state.queue_id;
    ok(await org.member.api.patch(`/user_groups/${id}`, { description: "new", can_mention_group: { new: roles.moderators, old: roles.everyone } }));
    ok(await org.member.api.post(`/user_groups/${id}/members`, { add: [org.member2.id], delete: [] }));
    ok(await org.member.api.post(`/user_groups/${id}/members`, { delete: [org.member2.id] }));
    ok(await org.member.api.post(`/user_groups/${id}/subgroups`, { add: [roles.moderators] }));
    ok(await org.member.api.post(`/user_groups/${id}/subgroups`, { delete: [roles.moderators] }));
    const events = (await userGroupEvents(client.person, queue)).map(({ id: _id, ...event }) => event);
    expect(events).toEqual([
      { type: "user_group", op: "update", group_id: id, data: { description: "new" } },
      { type: "user_group", op: "update", group_id: id, data: { can_mention_group: roles.moderators } },
      { type: "user_group", op: "add_members", group_id: id, user_ids: [org.member2.id] },
      { type: "user_group", op: "remove_members", group_id: id, user_ids: [org.member2.id] },
      { type: "user_group", op: "add_subgroups", group_id: id, direct_subgroup_ids: [roles.moderators] },
      { type: "user_group", op: "remove_subgroups", group_id: id, direct_subgroup_ids: [roles.moderators] },
    ]);
  });

  test("deactivation: an update for include_deactivated_groups clients, a remove for the others; silence while deactivated; reactivation an add", async () => {
    const id = await create(org.member);
    const capable = await register(org.owner, withDeactivated);
    const plain = await register(org.owner);
    ok(await org.member.api.post(`/user_groups/${id}/deactivate`));
    expect((await userGroupEvents(org.owner, capable.queue_id)).map(({ id: _id, ...event }) => event)).toEqual([{ type: "user_group", op: "update", group_id: id, data: { deactivated: true } }]);
    expect((await userGroupEvents(org.owner, plain.queue_id)).map(({ id: _id, ...event }) => event)).toEqual([{ type: "user_group", op: "remove", group_id: id }]);

    ok(await org.member.api.post(`/user_groups/${id}/members`, { add: [org.member2.id] }));
    ok(await org.member.api.patch(`/user_groups/${id}`, { description: "quietly" }));
    expect(await userGroupEvents(org.owner, plain.queue_id)).toHaveLength(1);
    expect(await userGroupEvents(org.owner, capable.queue_id)).toHaveLength(3);

    ok(await org.member.api.patch(`/user_groups/${id}`, { deactivated: false }));
    const plainEvents = await userGroupEvents(org.owner, plain.queue_id);
    expect(plainEvents).toHaveLength(2);
    expect(plainEvents[1]).toMatchObject({ type: "user_group", op: "add", group: { id, deactivated: false, description: "quietly", members: [org.member2.id] } });
    const capableEvents = await userGroupEvents(org.owner, capable.queue_id);
    expect(capableEvents.at(-1)).toMatchObject({ type: "user_group", op: "update", group_id: id, data: { deactivated: false } });
    // Register without the capability leaves deactivated groups out; with it, includes them.
    const gone = await create(org.member);
    ok(await org.member.api.post(`/user_groups/${gone}/deactivate`));
    expect((await register(org.owner)).realm_user_groups.map((group: State) => group.id)).not.toContain(gone);
    expect((await register(org.owner, withDeactivated)).realm_user_groups.find((group: State) => group.id === gone)).toMatchObject({ deactivated: true });
  });

  test("refused or failed changes send nothing; queues not asking for user_group get nothing", async () => {
    const id = await create(org.member);
    const [client] = await clients();
    const other = ok(await org.owner.api.post("/register", { event_types: ["message"] }));
    expect((await org.member2.api.patch(`/user_groups/${id}`, { description: "x" })).status).toBe(400);
    expect((await org.member.api.patch(`/user_groups/${id}`, { description: "x", can_mention_group: { new: roles.moderators, old: roles.nobody } })).status).toBe(400);
    expect((await org.member.api.post(`/user_groups/${id}/members`, { add: [org.member2.id, 999999] })).status).toBe(400);
    expect((await org.member.api.post(`/user_groups/${id}/subgroups`, { add: [id] })).status).toBe(400);
    expect(await userGroupEvents(client.person, client.state.queue_id)).toEqual([]);
    ok(await org.member.api.patch(`/user_groups/${id}`, { description: "now" }));
    expect(await userGroupEvents(client.person, client.state.queue_id)).toHaveLength(1);
    expect((await pending(org.owner, other.queue_id)).filter((event) => event.type === "user_group")).toEqual([]);
  });
});
