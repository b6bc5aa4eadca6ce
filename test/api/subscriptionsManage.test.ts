import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { channelId, createChannel, deactivateUser, isSubscribed, subscribe, subscriptionCount, subscriptionOf, systemGroupId, uniqueName } from "../helpers/channels";
import { type Org, expectError, ok, seedOrg } from "../helpers/seed";

/*
 * GET /users/me/subscriptions (spec 4.18), DELETE /users/me/subscriptions (unsubscribe, with
 * principals) and POST /users/me/subscriptions/properties.
 */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, 30_000);
afterAll(() => org.server.dispose());

const SUBSCRIPTION_FIELDS = [
  "stream_id", "name", "description", "rendered_description", "date_created", "creator_id", "invite_only", "is_web_public",
  "stream_post_policy", "is_announcement_only", "message_retention_days", "history_public_to_subscribers", "first_message_id",
  "is_recently_active", "stream_weekly_traffic", "can_add_subscribers_group", "can_remove_subscribers_group",
  "can_administer_channel_group", "can_send_message_group", "can_subscribe_group", "is_archived", "desktop_notifications",
  "email_notifications", "wildcard_mentions_notify", "push_notifications", "audible_notifications", "pin_to_top", "is_muted",
  "in_home_view", "color",
];

describe("GET /users/me/subscriptions", () => {
  test("lists subscribed channels with every field of 2.2, sorted by name; subscribers only when asked", async () => {
    const [zeta, alpha] = [`zeta-${uniqueName()}`, `alpha-${uniqueName()}`];
    const fresh = ok(await org.owner.api.post("/users", { email: `${uniqueName("lister")}@example.com`, password: "lister-password", full_name: "Lister" })).user_id;
    await subscribe(org.member, [zeta, alpha], { principals: [fresh, org.member2.id] });

    const { subscriptions } = ok(await org.member2.api.get("/users/me/subscriptions"));
    const mine = subscriptions.filter((sub: any) => sub.name === zeta || sub.name === alpha);
    expect(mine.map((sub: any) => sub.name)).toEqual([alpha, zeta]);
    for (const sub of mine) {
      expect(Object.keys(sub).sort()).toEqual([...SUBSCRIPTION_FIELDS].sort());
      expect(sub).toMatchObject({ is_muted: false, in_home_view: true, pin_to_top: false, desktop_notifications: null, email_notifications: null });
      expect(sub.color).toMatch(/^#[0-9a-f]{6}$/);
    }
    const withSubscribers = ok(await org.member2.api.get("/users/me/subscriptions", { include_subscribers: true })).subscriptions;
    expect(withSubscribers.find((sub: any) => sub.name === alpha).subscribers).toEqual([fresh, org.member2.id].sort((a, b) => a - b));
  });

  test("channels one left and archived channels are not listed", async () => {
    const [left, archived] = [uniqueName(), uniqueName()];
    await subscribe(org.member, [left, archived]);
    ok(await org.member.api.delete("/users/me/subscriptions", { subscriptions: [left] }));
    ok(await org.admin.api.delete(`/streams/${channelId(org.server, archived)}`));
    const names = ok(await org.member.api.get("/users/me/subscriptions")).subscriptions.map((sub: any) => sub.name);
    expect(names).not.toContain(left);
    expect(names).not.toContain(archived);
  });

  test("deactivated users are not listed as subscribers", async () => {
    const name = uniqueName();
    const leaver = ok(await org.owner.api.post("/users", { email: `${uniqueName("leaver")}@example.com`, password: "leaver-password", full_name: "Leaver" })).user_id;
    await subscribe(org.member, [name], { principals: [org.member.id, leaver] });
    await deactivateUser(org, leaver);
    const sub = ok(await org.member.api.get("/users/me/subscriptions", { include_subscribers: true })).subscriptions.find((s: any) => s.name === name);
    expect(sub.subscribers).toEqual([org.member.id]);
  });

  test("refuses include_subscribers that is not a boolean", async () => {
    expectError(await org.member.api.get("/users/me/subscriptions", { include_subscribers: "all" }), "BAD_REQUEST");
  });
});

describe("DELETE /users/me/subscriptions", () => {
  test("the caller leaves channels; channels they are not in are listed as not removed", async () => {
    const [a, b] = [uniqueName(), uniqueName()];
    await subscribe(org.member, [a]);
    await subscribe(org.member2, [b]);
    expect(ok(await org.member.api.delete("/users/me/subscriptions", { subscriptions: [a, b] }))).toEqual({ result: "success", msg: "", removed: [a], not_removed: [b] });
    expect(ok(await org.member.api.delete("/users/me/subscriptions", { subscriptions: [a] }))).toMatchObject({ removed: [], not_removed: [a] });
  });

  test("a channel that does not exist is STREAM_DOES_NOT_EXIST naming it, and nothing is removed", async () => {
    const name = uniqueName();
    await subscribe(org.member, [name]);
    const before = subscriptionCount(org.server);
    const response = await org.member.api.delete("/users/me/subscriptions", { subscriptions: [name, "no-such-channel"] });
    expectError(response, "STREAM_DOES_NOT_EXIST");
    expect(response.body.stream).toBe("no-such-channel");
    expect(subscriptionCount(org.server)).toBe(before);
  });

  test("anyone may unsubscribe themselves and their own bots", async () => {
    const name = uniqueName();
    await subscribe(org.member, [name], { principals: [org.member.id, org.bot.id] });
    expect(ok(await org.member.api.delete("/users/me/subscriptions", { subscriptions: [name], principals: [org.bot.id, org.member.id] })).removed).toEqual([name, name]);
    const guestChannel = uniqueName();
    await subscribe(org.member, [guestChannel], { principals: [org.guest.id] });
    expect(ok(await org.guest.api.delete("/users/me/subscriptions", { subscriptions: [guestChannel] })).removed).toEqual([guestChannel]);
  });

  test("removing others needs can_remove_subscribers_group (administrators by default) or administering the channel", async () => {
    const name = uniqueName();
    const id = await createChannel(org, org.admin, { principals: [org.member2.id, org.guest.id, org.moderator.id] }, name);
    for (const person of [org.moderator, org.member, org.guest, org.bot]) {
      const before = subscriptionCount(org.server);
      expectError(await person.api.delete("/users/me/subscriptions", { subscriptions: [name], principals: [org.member2.id] }), "BAD_REQUEST");
      expect(subscriptionCount(org.server)).toBe(before);
    }
    expect(ok(await org.owner.api.delete("/users/me/subscriptions", { subscriptions: [name], principals: [org.member2.id] })).removed).toEqual([name]);
    // The creator administers the channel they made.
    const own = uniqueName();
    await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, own);
    expect(ok(await org.member.api.delete("/users/me/subscriptions", { subscriptions: [own], principals: [org.member2.email] })).removed).toEqual([own]);
    // Moderators, once the channel lets them.
    ok(await org.admin.api.patch(`/streams/${id}`, { can_remove_subscribers_group: { new: systemGroupId(org.server, "role:moderators") } }));
    expect(ok(await org.moderator.api.delete("/users/me/subscriptions", { subscriptions: [name], principals: [org.guest.id] })).removed).toEqual([name]);
  });

  test("organization administrators remove people from private channels they are not in", async () => {
    const name = uniqueName("secret");
    await createChannel(org, org.member, { invite_only: true, principals: [org.member.id, org.member2.id] }, name);
    expect(ok(await org.admin.api.delete("/users/me/subscriptions", { subscriptions: [name], principals: [org.member2.id] })).removed).toEqual([name]);
  });

  test("can_remove_subscribers_group does not reach private channels one cannot see", async () => {
    const name = uniqueName("secret");
    await createChannel(org, org.member2, { invite_only: true, can_remove_subscribers_group: { direct_members: [org.member.id], direct_subgroups: [] } }, name);
    expectError(await org.member.api.delete("/users/me/subscriptions", { subscriptions: [name], principals: [org.member2.id] }), "BAD_REQUEST");
    expect(await isSubscribed(org.member2, channelId(org.server, name))).toBe(true);
  });

  test("unknown or deactivated principals are BAD_REQUEST (400)", async () => {
    const name = uniqueName();
    await subscribe(org.member, [name]);
    const leaver = ok(await org.owner.api.post("/users", { email: `${uniqueName("gone")}@example.com`, password: "gone-password", full_name: "Gone" })).user_id;
    await deactivateUser(org, leaver);
    for (const principals of [[999_999], [leaver], ["nobody@example.com"]]) {
      expectError(await org.admin.api.delete("/users/me/subscriptions", { subscriptions: [name], principals }), "BAD_REQUEST", 400);
    }
  });

  test("leaving a private channel ends access to it; leaving an archived one is allowed", async () => {
    const name = uniqueName("secret");
    const id = await createChannel(org, org.member, { invite_only: true, principals: [org.member2.id] }, name);
    ok(await org.member2.api.delete("/users/me/subscriptions", { subscriptions: [name] }));
    expectError(await org.member2.api.get(`/streams/${id}`), "BAD_REQUEST");
    const archived = uniqueName();
    const archivedId = await createChannel(org, org.admin, { principals: [org.admin.id, org.member.id] }, archived);
    ok(await org.admin.api.delete(`/streams/${archivedId}`));
    expect(ok(await org.member.api.delete("/users/me/subscriptions", { subscriptions: [archived] })).removed).toEqual([archived]);
  });

  test("refuses a missing or malformed subscriptions list", async () => {
    expectError(await org.member.api.delete("/users/me/subscriptions", {}), "BAD_REQUEST");
    expectError(await org.member.api.delete("/users/me/subscriptions", { subscriptions: "general" }), "BAD_REQUEST");
    expectError(await org.member.api.delete("/users/me/subscriptions", { subscriptions: [5] }), "BAD_REQUEST");
  });
});

describe("POST /users/me/subscriptions/properties", () => {
  let id: number;
  beforeAll(async () => {
    id = await createChannel(org, org.member);
  });
  const set = (property: string, value: unknown, streamId = id) => org.member.api.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: streamId, property, value }] });

  test.each([
    ["color", "#ff0000", { color: "#ff0000" }],
    ["is_muted", true, { is_muted: true, in_home_view: false }],
    ["in_home_view", true, { is_muted: false, in_home_view: true }],
    ["pin_to_top", true, { pin_to_top: true }],
    ["desktop_notifications", true, { desktop_notifications: true }],
    ["audible_notifications", false, { audible_notifications: false }],
    ["push_notifications", true, { push_notifications: true }],
    ["email_notifications", false, { email_notifications: false }],
    ["wildcard_mentions_notify", true, { wildcard_mentions_notify: true }],
  ])("sets %s", async (property, value, expected) => {
    ok(await set(property, value));
    expect(await subscriptionOf(org.member, id)).toMatchObject(expected);
  });

  test("changes several channels at once, and none if one change is invalid", async () => {
    const other = await createChannel(org, org.member);
    ok(await org.member.api.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: id, property: "pin_to_top", value: false }, { stream_id: other, property: "pin_to_top", value: true }] }));
    expect((await subscriptionOf(org.member, id))!.pin_to_top).toBe(false);
    expect((await subscriptionOf(org.member, other))!.pin_to_top).toBe(true);
    expectError(
      await org.member.api.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: id, property: "pin_to_top", value: true }, { stream_id: other, property: "color", value: "nope" }] }),
      "BAD_REQUEST",
    );
    expect((await subscriptionOf(org.member, id))!.pin_to_top).toBe(false);
  });

  test.each([
    ["an unknown property", "loudness", true],
    ["a boolean property given a string", "is_muted", "yes"],
    ["a color that is not a hex color", "color", "blue"],
    ["a color given a boolean", "color", true],
  ])("refuses %s", async (_label, property, value) => {
    expectError(await set(property, value), "BAD_REQUEST");
  });

  test("refuses channels the caller is not subscribed to, cannot see, or that do not exist", async () => {
    const notMine = await createChannel(org, org.member2);
    const hidden = await createChannel(org, org.member2, { invite_only: true });
    for (const streamId of [notMine, hidden, 999_999]) expectError(await set("pin_to_top", true, streamId), "BAD_REQUEST");
  });

  test("refuses malformed subscription_data", async () => {
    expectError(await org.member.api.post("/users/me/subscriptions/properties", { subscription_data: "pin" }), "BAD_REQUEST");
    expectError(await org.member.api.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: id, property: "pin_to_top" }] }), "BAD_REQUEST");
    expectError(await org.member.api.post("/users/me/subscriptions/properties", {}), "BAD_REQUEST");
  });

  test("settings in archived channels can still be changed", async () => {
    const archived = await createChannel(org, org.admin, { principals: [org.admin.id, org.member.id] });
    ok(await org.admin.api.delete(`/streams/${archived}`));
    // Only clients that know archived channels are shown them.
    const knowsArchived = { client_capabilities: { archived_channels: true }, fetch_event_types: ["subscription"], event_types: ["subscription"] };
    const subscriptionIn = (state: Record<string, any>) => (state.subscriptions as Array<Record<string, any>>).find((sub) => sub.stream_id === archived);
    const before = ok(await org.member.api.post("/register", knowsArchived));
    expect(subscriptionIn(before)).toMatchObject({ is_archived: true, is_muted: false });
    ok(await set("is_muted", true, archived));
    const { events } = ok(await org.member.api.get("/events", { queue_id: before.queue_id, last_event_id: -1, dont_block: true }));
    expect(events.filter((event: Record<string, any>) => event.type === "subscription")).toMatchObject([
      // in_home_view is the older, inverted name, still announced alongside.
      { op: "update", stream_id: archived, property: "in_home_view", value: false },
      { op: "update", stream_id: archived, property: "is_muted", value: true },
    ]);
    expect(subscriptionIn(ok(await org.member.api.post("/register", knowsArchived)))).toMatchObject({ is_archived: true, is_muted: true });
  });
});
