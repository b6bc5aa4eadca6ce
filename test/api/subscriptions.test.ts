import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  channelCount,
  expectNoChannelChange,
  channelId,
  createUserGroup,
  deactivateUser,
  getChannel,
  queryServer,
  setRealmSetting,
  subscribe,
  subscriptionCount,
  subscriptionOf,
  systemGroupId,
  uniqueName,
} from "../helpers/channels";
import { type Org, expectError, ok, seedOrg } from "../helpers/seed";

/* POST /users/me/subscriptions (spec 4.3): every parameter, and every refusal leaving nothing changed. */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, 30_000);
afterAll(() => org.server.dispose());

const nothingChanged = (attempt: () => Promise<void>) => expectNoChannelChange(org.server, attempt);

describe("subscribing oneself", () => {
  test("creates a missing channel and reports the caller under their user ID", async () => {
    const name = uniqueName();
    const body = await subscribe(org.member, [name]);
    expect(body).toEqual({ result: "success", msg: "", subscribed: { [org.member.id]: [name] }, already_subscribed: {} });
    const again = await subscribe(org.member, [name]);
    expect(again.subscribed).toEqual({});
    expect(again.already_subscribed).toEqual({ [org.member.id]: [name] });
  });

  test("matches existing channels regardless of case and surrounding spaces, and lists each once", async () => {
    const name = uniqueName("Mixed");
    await subscribe(org.member, [name]);
    const body = await subscribe(org.member2, [`  ${name.toUpperCase()} `, name]);
    expect(body.subscribed).toEqual({ [org.member2.id]: [name] });
    expect(channelId(org.server, name)).toBeGreaterThan(0);
  });

  test("uses the description only when it creates the channel; line breaks become spaces", async () => {
    const name = uniqueName();
    ok(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name, description: "First line\nsecond *line*" }] }));
    ok(await org.member2.api.post("/users/me/subscriptions", { subscriptions: [{ name, description: "ignored" }] }));
    const channel = await getChannel(org.member, channelId(org.server, name));
    expect(channel.description).toBe("First line second *line*");
    expect(channel.rendered_description).toStartWith("<p>");
  });

  test("a new channel has the creator and the defaults of every group-setting", async () => {
    const name = uniqueName();
    await subscribe(org.member, [name]);
    const channel = await getChannel(org.member, channelId(org.server, name));
    expect(channel).toMatchObject({
      name,
      creator_id: org.member.id,
      invite_only: false,
      is_web_public: false,
      is_archived: false,
      history_public_to_subscribers: true,
      message_retention_days: null,
      stream_weekly_traffic: null,
      stream_post_policy: 1,
      is_announcement_only: false,
      can_add_subscribers_group: systemGroupId(org.server, "role:nobody"),
      can_remove_subscribers_group: systemGroupId(org.server, "role:administrators"),
      can_administer_channel_group: { direct_members: [org.member.id], direct_subgroups: [] },
      can_send_message_group: systemGroupId(org.server, "role:everyone"),
      can_subscribe_group: systemGroupId(org.server, "role:nobody"),
    });
    expect(typeof channel.date_created).toBe("number");
    // The notification bot's creation notice is the channel's first message.
    expect(typeof channel.first_message_id).toBe("number");
    expect(channel).not.toHaveProperty("is_default");
  });

  test("guests may not join public channels nor create any", async () => {
    const name = uniqueName();
    await subscribe(org.member, [name]);
    await nothingChanged(async () => {
      expectError(await org.guest.api.post("/users/me/subscriptions", { subscriptions: [{ name }] }), "BAD_REQUEST");
      expectError(await org.guest.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }] }), "BAD_REQUEST");
    });
  });

  test("bots subscribe themselves like members", async () => {
    const name = uniqueName();
    expect((await subscribe(org.bot, [name])).subscribed).toEqual({ [org.bot.id]: [name] });
  });
});

describe("names and descriptions", () => {
  test.each([
    ["an empty name", ""],
    ["a blank name", "   "],
    ["a name over 60 characters", "x".repeat(61)],
    ["a name with a control character", "bad\u0007name"],
  ])("refuses %s and creates nothing", async (_label, name) => {
    await nothingChanged(async () => expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name }] }), "BAD_REQUEST"));
  });

  test("accepts a name of exactly 60 characters, counted in characters not bytes", async () => {
    const name = `${"é".repeat(59)}${Math.random().toString(36).slice(2, 3)}`;
    await subscribe(org.member, [name]);
  });

  test("refuses a description over 1024 characters", async () => {
    await nothingChanged(async () =>
      expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName(), description: "d".repeat(1025) }] }), "BAD_REQUEST"),
    );
  });

  test.each([
    ["not JSON", "general"],
    ["an object instead of a list", '{"name":"x"}'],
    ["items without a name", '[{"description":"x"}]'],
    ["a name that is not a string", '[{"name":5}]'],
  ])("refuses subscriptions that are %s", async (_label, raw) => {
    await nothingChanged(async () => expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: raw }), "BAD_REQUEST"));
  });

  test("refuses a request without subscriptions, and a huge string, with BAD_REQUEST", async () => {
    expectError(await org.member.api.post("/users/me/subscriptions", {}), "BAD_REQUEST");
    expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: "x".repeat(200_000) }] }), "BAD_REQUEST");
  });

  test("refuses booleans that are not booleans", async () => {
    await nothingChanged(async () => expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], invite_only: "maybe" }), "BAD_REQUEST"));
  });
});

describe("settings of channels the call creates", () => {
  test("invite_only makes a private channel with protected history unless history is asked for", async () => {
    const [protectedName, sharedName] = [uniqueName(), uniqueName()];
    await subscribe(org.member, [protectedName], { invite_only: true });
    await subscribe(org.member, [sharedName], { invite_only: true, history_public_to_subscribers: true });
    expect(await getChannel(org.member, channelId(org.server, protectedName))).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    expect(await getChannel(org.member, channelId(org.server, sharedName))).toMatchObject({ invite_only: true, history_public_to_subscribers: true });
  });

  test("public channels always share history with subscribers", async () => {
    const name = uniqueName();
    await subscribe(org.member, [name], { history_public_to_subscribers: false });
    expect((await getChannel(org.member, channelId(org.server, name))).history_public_to_subscribers).toBe(true);
  });

  test("the call's settings apply only to channels it creates", async () => {
    const name = uniqueName();
    await subscribe(org.member, [name]);
    await subscribe(org.member2, [name], { invite_only: true, can_send_message_group: systemGroupId(org.server, "role:administrators") });
    expect(await getChannel(org.member, channelId(org.server, name))).toMatchObject({ invite_only: false, can_send_message_group: systemGroupId(org.server, "role:everyone") });
  });

  describe("is_web_public", () => {
    test("needs spectator access enabled in the organization", async () => {
      setRealmSetting(org.server, "enable_spectator_access", false);
      await nothingChanged(async () => expectError(await org.owner.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], is_web_public: true }), "BAD_REQUEST"));
    });

    test("needs membership in can_create_web_public_channel_group (owners by default)", async () => {
      setRealmSetting(org.server, "enable_spectator_access", true);
      try {
        for (const person of [org.admin, org.moderator, org.member]) {
          await nothingChanged(async () => expectError(await person.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], is_web_public: true }), "BAD_REQUEST"));
        }
        const name = uniqueName();
        await subscribe(org.owner, [name], { is_web_public: true });
        expect(await getChannel(org.member, channelId(org.server, name))).toMatchObject({ is_web_public: true, invite_only: false, history_public_to_subscribers: true });
        await nothingChanged(async () =>
          expectError(await org.owner.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], is_web_public: true, invite_only: true }), "BAD_REQUEST"),
        );
      } finally {
        setRealmSetting(org.server, "enable_spectator_access", false);
      }
    });
  });

  describe("is_default_stream", () => {
    test("administrators make new channels default channels", async () => {
      const name = uniqueName();
      await subscribe(org.admin, [name], { is_default_stream: true });
      const { streams } = ok(await org.member.api.get("/streams", { include_default: true }));
      expect(streams.find((s: any) => s.name === name).is_default).toBe(true);
    });

    test("others may not, and a private channel cannot be a default channel", async () => {
      for (const person of [org.moderator, org.member]) {
        await nothingChanged(async () => expectError(await person.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], is_default_stream: true }), "BAD_REQUEST"));
      }
      await nothingChanged(async () =>
        expectError(await org.admin.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], is_default_stream: true, invite_only: true }), "BAD_REQUEST"),
      );
    });
  });

  describe("message_retention_days", () => {
    test.each([
      ["30", 30],
      [30, 30],
      ["unlimited", -1],
      ['"unlimited"', -1],
      ["realm_default", null],
    ])("an owner may set %p", async (value, stored) => {
      const name = uniqueName();
      await subscribe(org.owner, [name], { message_retention_days: value });
      expect((await getChannel(org.owner, channelId(org.server, name))).message_retention_days).toBe(stored);
    });

    test("anyone may ask for the organization default", async () => {
      await subscribe(org.member, [uniqueName()], { message_retention_days: "realm_default" });
    });

    test("anything else needs an owner", async () => {
      for (const person of [org.admin, org.member]) {
        await nothingChanged(async () =>
          expectError(await person.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], message_retention_days: 30 }), "UNAUTHORIZED_PRINCIPAL"),
        );
      }
    });

    test.each(["0", "-5", "abc", "forever", "1.5"])("refuses %p", async (value) => {
      await nothingChanged(async () =>
        expectError(await org.owner.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], message_retention_days: value }), "BAD_REQUEST"),
      );
    });
  });

  describe("group-settings", () => {
    const settings = ["can_add_subscribers_group", "can_remove_subscribers_group", "can_administer_channel_group", "can_send_message_group", "can_subscribe_group"];

    test.each(settings)("%s takes a group ID or an anonymous set of users and groups", async (setting) => {
      const moderators = systemGroupId(org.server, "role:moderators");
      const [byId, anonymous] = [uniqueName(), uniqueName()];
      await subscribe(org.member, [byId], { [setting]: moderators });
      await subscribe(org.member, [anonymous], { [setting]: { direct_members: [org.member2.id, org.member.id], direct_subgroups: [moderators] } });
      expect((await getChannel(org.member, channelId(org.server, byId)))[setting]).toBe(moderators);
      expect((await getChannel(org.member, channelId(org.server, anonymous)))[setting]).toEqual({
        direct_members: [org.member.id, org.member2.id].sort((a, b) => a - b),
        direct_subgroups: [moderators],
      });
    });

    test("an anonymous value of one group is that group, and an empty one is role:nobody", async () => {
      const [single, empty] = [uniqueName(), uniqueName()];
      const admins = systemGroupId(org.server, "role:administrators");
      await subscribe(org.member, [single], { can_send_message_group: { direct_members: [], direct_subgroups: [admins] } });
      await subscribe(org.member, [empty], { can_send_message_group: { direct_members: [], direct_subgroups: [] } });
      expect(await getChannel(org.member, channelId(org.server, single))).toMatchObject({ can_send_message_group: admins, stream_post_policy: 2, is_announcement_only: true });
      expect((await getChannel(org.member, channelId(org.server, empty))).can_send_message_group).toBe(systemGroupId(org.server, "role:nobody"));
    });

    test.each([
      ["can_add_subscribers_group", "role:everyone"],
      ["can_administer_channel_group", "role:everyone"],
      ["can_subscribe_group", "role:everyone"],
      ["can_send_message_group", "role:internet"],
      ["can_remove_subscribers_group", "role:internet"],
    ])("%s may not be %s", async (setting, group) => {
      await nothingChanged(async () =>
        expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], [setting]: systemGroupId(org.server, group) }), "BAD_REQUEST"),
      );
    });

    test("refuses unknown and deactivated groups, unknown and deactivated users, and malformed values", async () => {
      const retired = createUserGroup(org.server, uniqueName("retired"), [org.member.id], { deactivated: true });
      const leaver = ok(await org.owner.api.post("/users", { email: `${uniqueName("leaver")}@example.com`, password: "leaver-password", full_name: "Leaver" })).user_id;
      await deactivateUser(org, leaver);
      const bad = [
        999_999,
        retired,
        { direct_members: [999_999], direct_subgroups: [] },
        { direct_members: [leaver], direct_subgroups: [] },
        { direct_members: [org.member.id], direct_subgroups: [retired] },
        { direct_members: [org.member.id], direct_subgroups: [999_999] },
        "not a group",
        { direct_members: [org.member.id] },
        1.5,
      ];
      for (const value of bad) {
        await nothingChanged(async () =>
          expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], can_send_message_group: value }), "BAD_REQUEST"),
        );
      }
    });

    test("a value naming someone else's anonymous setting group is refused", async () => {
      const name = uniqueName();
      await subscribe(org.member, [name]);
      const hidden = (await getChannel(org.member, channelId(org.server, name))).can_administer_channel_group;
      expect(typeof hidden).toBe("object");
      // The unnamed group behind that value has an ID, but it is nobody's to reuse.
      const unnamedId = queryServer<{ id: number }>(
        org.server,
        "SELECT can_administer_channel_group AS id FROM channels WHERE id = ?",
        channelId(org.server, name),
      )[0].id;
      await nothingChanged(async () =>
        expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], can_send_message_group: unnamedId }), "BAD_REQUEST"),
      );
    });
  });

  describe("who may create channels", () => {
    test("follows can_create_public_channel_group and can_create_private_channel_group", async () => {
      const admins = systemGroupId(org.server, "role:administrators");
      const members = systemGroupId(org.server, "role:members");
      const existing = uniqueName();
      await subscribe(org.admin, [existing]);
      setRealmSetting(org.server, "can_create_public_channel_group", admins);
      setRealmSetting(org.server, "can_create_private_channel_group", admins);
      try {
        for (const person of [org.moderator, org.member, org.bot]) {
          await nothingChanged(async () => {
            expectError(await person.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }] }), "BAD_REQUEST");
            expectError(await person.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], invite_only: true }), "BAD_REQUEST");
            // A call that also names an existing channel fails as a whole.
            expectError(await person.api.post("/users/me/subscriptions", { subscriptions: [{ name: existing }, { name: uniqueName() }] }), "BAD_REQUEST");
          });
        }
        // Joining existing channels needs no creation permission.
        expect((await subscribe(org.member, [existing])).subscribed).toEqual({ [org.member.id]: [existing] });
        await subscribe(org.admin, [uniqueName()], { invite_only: true });
      } finally {
        setRealmSetting(org.server, "can_create_public_channel_group", members);
        setRealmSetting(org.server, "can_create_private_channel_group", members);
      }
    });
  });
});

describe("channels that already exist", () => {
  test("a private channel the caller cannot reach is an error, or listed as unauthorized when errors are not fatal", async () => {
    const [secret, open] = [uniqueName("secret"), uniqueName()];
    await subscribe(org.member, [secret], { invite_only: true });
    await subscribe(org.member, [open]);
    await nothingChanged(async () => {
      const refused = await org.member2.api.post("/users/me/subscriptions", { subscriptions: [{ name: secret }, { name: open }] });
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe(`Unable to access channel (${secret}).`);
    });
    const lenient = ok(await org.member2.api.post("/users/me/subscriptions", { subscriptions: [{ name: secret }, { name: open }], authorization_errors_fatal: false }));
    expect(lenient).toMatchObject({ subscribed: { [org.member2.id]: [open] }, already_subscribed: {}, unauthorized: [secret] });
  });

  test("organization administrators have no content access to private channels they are not in", async () => {
    const secret = uniqueName("secret");
    await subscribe(org.member, [secret], { invite_only: true });
    expectError(await org.admin.api.post("/users/me/subscriptions", { subscriptions: [{ name: secret }] }), "BAD_REQUEST");
  });

  test("members of can_subscribe_group or can_add_subscribers_group may join a private channel", async () => {
    const viaSubscribe = uniqueName("secret");
    const viaAdd = uniqueName("secret");
    await subscribe(org.member, [viaSubscribe], { invite_only: true, can_subscribe_group: { direct_members: [org.member2.id], direct_subgroups: [] } });
    await subscribe(org.member, [viaAdd], { invite_only: true, can_add_subscribers_group: { direct_members: [org.member2.id], direct_subgroups: [] } });
    expect((await subscribe(org.member2, [viaSubscribe, viaAdd])).subscribed).toEqual({ [org.member2.id]: [viaSubscribe, viaAdd] });
  });

  test("archived channels can still be joined (feature level 362 and later)", async () => {
    const name = uniqueName();
    const id = (await subscribe(org.admin, [name]), channelId(org.server, name));
    ok(await org.admin.api.delete(`/streams/${id}`));
    expect((await subscribe(org.member, [name])).subscribed).toEqual({ [org.member.id]: [name] });
  });

  test("the response includes unauthorized only when errors are not fatal", async () => {
    const body = await subscribe(org.member, [uniqueName()], { authorization_errors_fatal: false });
    expect(body.unauthorized).toEqual([]);
    expect(await subscribe(org.member, [uniqueName()])).not.toHaveProperty("unauthorized");
  });
});

describe("principals", () => {
  test("subscribes people by user ID or by e-mail, not the caller", async () => {
    const [byId, byEmail] = [uniqueName(), uniqueName()];
    expect((await subscribe(org.member, [byId], { principals: [org.member2.id, org.guest.id] })).subscribed).toEqual({
      [org.member2.id]: [byId],
      [org.guest.id]: [byId],
    });
    expect((await subscribe(org.member, [byEmail], { principals: [org.member2.email] })).subscribed).toEqual({ [org.member2.id]: [byEmail] });
    expect(await subscriptionOf(org.member, channelId(org.server, byId))).toBeUndefined();
  });

  test("an empty list means the caller", async () => {
    const name = uniqueName();
    expect((await subscribe(org.member, [name], { principals: [] })).subscribed).toEqual({ [org.member.id]: [name] });
  });

  test("nonexistent and deactivated principals are BAD_REQUEST with status 400, and nothing happens", async () => {
    const leaver = ok(await org.owner.api.post("/users", { email: `${uniqueName("gone")}@example.com`, password: "gone-password", full_name: "Gone" })).user_id;
    await deactivateUser(org, leaver);
    for (const principals of [[999_999], [org.member2.id, leaver], ["nobody@example.com"]]) {
      await nothingChanged(async () => {
        const response = await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], principals });
        expectError(response, "BAD_REQUEST", 400);
      });
    }
  });

  test.each([
    ["mixed IDs and addresses", () => [org.member2.id, org.member2.email]],
    ["not JSON", () => "member2"],
    ["not a list", () => ({ id: 1 })],
  ])("refuses principals that are %s", async (_label, principals) => {
    await nothingChanged(async () =>
      expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], principals: principals() }), "BAD_REQUEST"),
    );
  });

  test("adding others to an existing channel follows the organization's can_add_subscribers_group", async () => {
    const name = uniqueName();
    await subscribe(org.admin, [name]);
    setRealmSetting(org.server, "can_add_subscribers_group", systemGroupId(org.server, "role:administrators"));
    try {
      await nothingChanged(async () => expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [org.member2.id] }), "BAD_REQUEST"));
      // Even without it, the creator of a channel may add people while creating it...
      const fresh = uniqueName();
      expect((await subscribe(org.member, [fresh], { principals: [org.member2.id] })).subscribed).toEqual({ [org.member2.id]: [fresh] });
      // ...and may add people to a channel they administer.
      expect((await subscribe(org.member, [fresh], { principals: [org.moderator.id] })).subscribed).toEqual({ [org.moderator.id]: [fresh] });
      // ...or where the channel's own can_add_subscribers_group includes them.
      const delegated = uniqueName();
      await subscribe(org.admin, [delegated], { can_add_subscribers_group: { direct_members: [org.member.id], direct_subgroups: [] } });
      expect((await subscribe(org.member, [delegated], { principals: [org.member2.id] })).subscribed).toEqual({ [org.member2.id]: [delegated] });
      // Subscribing oneself needs none of this, nor does naming only oneself.
      expect((await subscribe(org.member, [name], { principals: [org.member.email] })).subscribed).toEqual({ [org.member.id]: [name] });
    } finally {
      setRealmSetting(org.server, "can_add_subscribers_group", systemGroupId(org.server, "role:members"));
    }
  });

  test("members of can_add_subscribers_group may add people to a private channel they are not in", async () => {
    const name = uniqueName("secret");
    await subscribe(org.member, [name], { invite_only: true, can_add_subscribers_group: { direct_members: [org.member2.id], direct_subgroups: [] } });
    expect((await subscribe(org.member2, [name], { principals: [org.moderator.id] })).subscribed).toEqual({ [org.moderator.id]: [name] });
    expect(await subscriptionOf(org.member2, channelId(org.server, name))).toBeUndefined();
  });
});

describe("colors", () => {
  test("each new subscription takes the next palette color the user does not use yet", async () => {
    const fresh = ok(await org.owner.api.post("/users", { email: `${uniqueName("painter")}@example.com`, password: "painter-password", full_name: "Painter" })).user_id;
    const [a, b] = [uniqueName(), uniqueName()];
    await subscribe(org.admin, [a, b], { principals: [fresh] });
    const rows = queryServer<{ color: string }>(org.server, "SELECT color FROM subscriptions WHERE user_id = ? ORDER BY channel_id", fresh);
    expect(rows.map((row) => row.color)).toEqual(["#76ce90", "#fae589"]);
  });

  test("a color given with the channel is used, and an invalid one refused", async () => {
    const name = uniqueName();
    ok(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name, color: "#123abc" }] }));
    expect((await subscriptionOf(org.member, channelId(org.server, name)))!.color).toBe("#123abc");
    await nothingChanged(async () => expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName(), color: "red" }] }), "BAD_REQUEST"));
  });

  test("rejoining brings back the old color and settings", async () => {
    const name = uniqueName();
    await subscribe(org.member, [name]);
    const id = channelId(org.server, name);
    ok(await org.member.api.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: id, property: "color", value: "#abcdef" }, { stream_id: id, property: "pin_to_top", value: true }] }));
    ok(await org.member.api.delete("/users/me/subscriptions", { subscriptions: [name] }));
    await subscribe(org.member, [name]);
    expect(await subscriptionOf(org.member, id)).toMatchObject({ color: "#abcdef", pin_to_top: true });
  });
});

test("announce is accepted when creating channels (the notification bot posts once messages exist)", async () => {
  const name = uniqueName();
  expect((await subscribe(org.member, [name], { announce: true })).subscribed).toEqual({ [org.member.id]: [name] });
});

test("unknown parameters are reported as ignored", async () => {
  const body = await subscribe(org.member, [uniqueName()], { topics_policy: "inherit" });
  expect(body.ignored_parameters_unsupported).toEqual(["topics_policy"]);
});
