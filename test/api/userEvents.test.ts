import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addBot } from "../../src/actions/bots";
import { addAccount, applyUserChanges } from "../../src/actions/users";
import { read, write } from "../../src/db/transaction";
import { systemGroupsByName } from "../../src/db/userGroups";
import { getRealm, setRealmSettings, updateRealm } from "../../src/db/realm";
import type { User } from "../../src/db/users";
import type { RealmUserAddEvent } from "../../src/events/kinds/users";
import { captureEvents, inProcessOrg, type InProcessOrg } from "../helpers/inProcess";

/*
 * Who hears of user and bot changes, checked on the events the actions emit (in this process,
 * on its own database), including who must NOT hear of them.
 */

let local: InProcessOrg;
/** Each group of tests gets a fresh organization: the tests deactivate and change people. */
function freshOrganizationPerGroup() {
  beforeAll(async () => {
    local = await inProcessOrg();
  });
  afterAll(() => local.dispose());
}

const ids = (...users: User[]) => users.map((user) => user.id).sort((a, b) => a - b);
const roleGroup = async (name: string) => (await read((db) => systemGroupsByName(db))).get(name)!.id;
const groupEvent = async (op: "add_members" | "remove_members", group: string, userId: number, userIds: number[]) => ({
  event: { type: "user_group" as const, op, group_id: await roleGroup(group), user_ids: [userId] },
  userIds,
});

describe("user events", () => {
  freshOrganizationPerGroup();

  test("a rename tells every active user, one property per event, and a deactivated user nothing", async () => {
    await local.deactivate(local.member2);
    const { emitted } = await captureEvents((tx) => applyUserChanges(tx, local.admin, local.member.id, { fullName: "Mel Renamed", role: 300 }));
    const audience = ids(local.owner, local.admin, local.moderator, local.member, local.guest, local.notificationBot);
    // The role groups' member lists follow the role, told after the realm_user event.
    expect(emitted).toEqual([
      { event: { type: "realm_user", op: "update", person: { user_id: local.member.id, full_name: "Mel Renamed" } }, userIds: audience },
      { event: { type: "realm_user", op: "update", person: { user_id: local.member.id, role: 300 } }, userIds: audience },
      await groupEvent("remove_members", "role:members", local.member.id, audience),
      await groupEvent("remove_members", "role:fullmembers", local.member.id, audience),
      await groupEvent("add_members", "role:moderators", local.member.id, audience),
    ]);
  });

  test("a new account is announced to everyone, its real address only to those allowed to see it", async () => {
    const realm = await read(getRealm);
    await write((tx) => updateRealm(tx, { userSettingsDefaults: { ...realm.userSettingsDefaults, email_address_visibility: 3 } }));
    const { result: created, emitted } = await captureEvents((tx) => addAccount(tx, { email: "private.new@example.com", fullName: "Private New", role: 400, passwordHash: null }));
    const added = emitted.filter(({ event }) => event.type === "realm_user");
    expect(added.map(({ event, userIds }) => ({ person: (event as RealmUserAddEvent).person, userIds }))).toEqual([
      { person: expect.objectContaining({ user_id: created.id, email: "private.new@example.com", delivery_email: "private.new@example.com" }), userIds: ids(local.owner, local.admin, created) },
      {
        person: expect.objectContaining({ user_id: created.id, email: `user${created.id}@localhost`, delivery_email: null }),
        userIds: ids(local.moderator, await local.reload(local.member), local.guest, local.notificationBot),
      },
    ]);
    expect(added.every(({ event }) => event.type === "realm_user" && event.op === "add")).toBe(true);
    // Then everyone active (member2 was deactivated above), the new account included, learns it joined its role groups.
    const everyone = ids(local.owner, local.admin, local.moderator, await local.reload(local.member), local.guest, local.notificationBot, created);
    expect(emitted.slice(added.length)).toEqual([await groupEvent("add_members", "role:members", created.id, everyone), await groupEvent("add_members", "role:fullmembers", created.id, everyone)]);
  });

  test("a guest who may not see everyone gets a placeholder for a new user, and no news of its renames", async () => {
    const realm = await read(getRealm);
    const setAccessGroup = (name: string) =>
      write(async (tx) => setRealmSettings(tx, { ...realm.settings, can_access_all_users_group: (await systemGroupsByName(tx)).get(name)!.id }));
    await setAccessGroup("role:members");
    try {
      const { result: created, emitted } = await captureEvents((tx) => addAccount(tx, { email: "hidden.new@example.com", fullName: "Hidden New", role: 400, passwordHash: null }));
      expect(emitted.filter(({ event, userIds }) => event.type === "realm_user" && userIds.includes(local.guest.id))).toEqual([
        { event: { type: "realm_user", op: "add", person: expect.objectContaining({ user_id: created.id, full_name: "Unknown user", delivery_email: null }), inaccessible_user: true }, userIds: [local.guest.id] },
      ]);
      const renamed = (await captureEvents((tx) => applyUserChanges(tx, local.admin, created.id, { fullName: "Hidden Renamed" }))).emitted;
      expect(renamed).toHaveLength(1);
      expect(renamed[0].userIds).toContain(local.moderator.id);
      expect(renamed[0].userIds).not.toContain(local.guest.id);
    } finally {
      await setAccessGroup("role:everyone");
    }
  });

  test("an unchanged value and a refused change emit nothing", async () => {
    const current: User = await local.reload(local.member);
    expect((await captureEvents((tx) => applyUserChanges(tx, local.admin, current.id, { fullName: current.fullName, role: current.role }))).emitted).toEqual([]);
    await expect(captureEvents((tx) => applyUserChanges(tx, local.moderator, current.id, { fullName: "Not Allowed" }))).rejects.toThrow("Only organization administrators");
    expect((await local.reload(local.member)).fullName).toBe(current.fullName);
  });
});

describe("bot events", () => {
  freshOrganizationPerGroup();

  test("a new bot is announced to everyone, its details and key only to its owner and the administrators", async () => {
    const { result: bot, emitted } = await captureEvents((tx) => addBot(tx, local.member, { fullName: "Event Bot", shortName: "event", botType: 3, payloadUrl: "https://example.com/hook", interfaceType: 1 }));
    const everyone = [...ids(local.owner, local.admin, local.moderator, local.member, local.member2, local.guest, local.notificationBot), bot.user_id].sort((a, b) => a - b);
    expect(emitted.map(({ event, userIds }) => [event.type, "op" in event ? event.op : null, userIds])).toEqual([
      ["realm_user", "add", everyone],
      ["user_group", "add_members", everyone],
      ["user_group", "add_members", everyone],
      ["realm_bot", "add", ids(local.owner, local.admin, local.member)],
    ]);
    expect(emitted[3].event).toEqual({ type: "realm_bot", op: "add", bot });
    expect(bot).toMatchObject({ email: "event-bot@localhost", owner_id: local.member.id, is_active: true, services: [{ base_url: "https://example.com/hook", interface: 1, token: expect.any(String) }] });
  });

  test("a deactivated administrator is not told", async () => {
    await local.deactivate(local.admin);
    const { emitted } = await captureEvents((tx) => addBot(tx, local.member2, { fullName: "Quiet Bot", shortName: "quiet", botType: 1, interfaceType: 1 }));
    expect(emitted.find(({ event }) => event.type === "realm_bot")!.userIds).toEqual(ids(local.owner, local.member2));
  });

  test("renaming a bot tells everyone the name, and its owner and administrators the bot change", async () => {
    const { result: bot } = await captureEvents((tx) => addBot(tx, local.member, { fullName: "Old Name Bot", shortName: "renamed", botType: 1, interfaceType: 1 }));
    const { emitted } = await captureEvents((tx) => applyUserChanges(tx, local.owner, bot.user_id, { fullName: "New Name Bot" }));
    expect(emitted).toEqual([
      { event: { type: "realm_user", op: "update", person: { user_id: bot.user_id, full_name: "New Name Bot" } }, userIds: expect.arrayContaining(ids(local.moderator, local.member2, local.guest)) },
      { event: { type: "realm_bot", op: "update", bot: { user_id: bot.user_id, full_name: "New Name Bot" } }, userIds: ids(local.owner, local.member) },
    ]);
  });
});
