import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createPerson, expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { SEED_TIMEOUT_MS, pending, pendingOf, register } from "../events/support";

let org: Org;
let everyone: Person[];

beforeAll(async () => {
  org = await seedOrg();
  everyone = [org.owner, org.admin, org.moderator, org.member, org.member2, org.guest, org.bot];
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const ENDPOINT = "/realm/user_settings_defaults";
const defaultsOf = async (person: Person) => (await register(person, { fetch_event_types: ["realm_user_settings_defaults"] })).realm_user_settings_defaults;
const settingsOf = async (person: Person) => (await register(person, { fetch_event_types: ["user_settings"] })).user_settings;
const queueOf = async (person: Person) => (await register(person, { fetch_event_types: [] })).queue_id as string;

/** Every setting spec 2.11 lists, each with a valid value other than its usual default. */
const SPEC_SETTINGS: Record<string, unknown> = {
  starred_message_counts: false,
  receives_typing_notifications: false,
  web_suggest_update_timezone: false,
  fluid_layout_width: true,
  high_contrast_mode: true,
  enable_drafts_synchronization: false,
  translate_emoticons: false,
  display_emoji_reaction_users: false,
  web_escape_navigates_to_home_view: false,
  left_side_userlist: true,
  hide_ai_features: true,
  enable_stream_desktop_notifications: true,
  enable_stream_email_notifications: true,
  enable_stream_push_notifications: true,
  enable_stream_audible_notifications: true,
  enable_desktop_notifications: false,
  enable_sounds: false,
  enable_followed_topic_desktop_notifications: false,
  enable_followed_topic_email_notifications: false,
  enable_followed_topic_push_notifications: false,
  enable_followed_topic_audible_notifications: false,
  enable_offline_email_notifications: false,
  enable_offline_push_notifications: false,
  enable_online_push_notifications: false,
  enable_digest_emails: false,
  message_content_in_email_notifications: false,
  pm_content_in_desktop_notifications: false,
  wildcard_mentions_notify: false,
  enable_followed_topic_wildcard_mentions_notify: false,
  automatically_follow_topics_where_mentioned: false,
  presence_enabled: false,
  enter_sends: true,
  twenty_four_hour_time: true,
  send_private_typing_notifications: false,
  send_stream_typing_notifications: false,
  send_read_receipts: false,
  web_navigate_to_sent_message: false,
  web_channel_default_view: 2,
  web_font_size_px: 14,
  web_line_height_percent: 122,
  color_scheme: 2,
  web_home_view: "recent_topics",
  emojiset: "google-blob",
  user_list_style: 3,
  web_animate_image_previews: "never",
  web_stream_unreads_count_display_policy: 3,
  email_notifications_batching_period_seconds: 600,
  desktop_icon_count_display: 4,
  automatically_follow_topics_policy: 4,
  automatically_unmute_topics_in_muted_streams_policy: 4,
  email_address_visibility: 4,
  demote_inactive_streams: 3,
  notification_sound: "ding",
  realm_name_in_email_notifications_policy: 3,
};

describe("PATCH /realm/user_settings_defaults", () => {
  test("an administrator changes a default: everyone active is told, one event per setting", async () => {
    const queues = await Promise.all(everyone.map(async (person) => [person, await queueOf(person)] as const));
    const response = ok(await org.admin.api.patch(ENDPOINT, { left_side_userlist: true, web_font_size_px: 18 }));
    expect(response).toEqual({ result: "success", msg: "" });
    for (const [person, queueId] of queues) {
      expect<unknown>(await pendingOf(person, queueId, ["realm_user_settings_defaults"])).toEqual([
        { type: "realm_user_settings_defaults", op: "update", property: "left_side_userlist", value: true, id: expect.any(Number) },
        { type: "realm_user_settings_defaults", op: "update", property: "web_font_size_px", value: 18, id: expect.any(Number) },
      ]);
    }
    expect(await defaultsOf(org.member)).toMatchObject({ left_side_userlist: true, web_font_size_px: 18 });
  });

  test("an owner may change defaults too", async () => {
    ok(await org.owner.api.patch(ENDPOINT, { enter_sends: true }));
    expect((await defaultsOf(org.owner)).enter_sends).toBe(true);
  });

  test("takes every setting of spec 2.11 with a valid value, and register shows them all", async () => {
    const response = ok(await org.owner.api.patch(ENDPOINT, SPEC_SETTINGS));
    expect(response.ignored_parameters_unsupported).toBeUndefined();
    expect(await defaultsOf(org.admin)).toMatchObject(SPEC_SETTINGS);
  });

  test("register's realm_user_settings_defaults has the choices and no time zone", async () => {
    const defaults = await defaultsOf(org.member);
    expect(defaults.timezone).toBeUndefined();
    expect(defaults.emojiset_choices.map((choice: { key: string }) => choice.key)).toEqual(["google", "twitter", "text", "google-blob"]);
    expect(defaults.available_notification_sounds).toContain("ding");
    expect(typeof defaults.default_language).toBe("string");
  });

  test("replaying the events on an old snapshot gives the new one", async () => {
    const before = await register(org.member2, { fetch_event_types: ["realm_user_settings_defaults"] });
    ok(await org.admin.api.patch(ENDPOINT, { color_scheme: 3, emojiset: "twitter", high_contrast_mode: false }));
    const replayed = structuredClone(before.realm_user_settings_defaults);
    for (const event of await pendingOf(org.member2, before.queue_id, ["realm_user_settings_defaults"])) replayed[event.property] = event.value;
    expect(replayed).toEqual(await defaultsOf(org.member2));
  });

  test("an unchanged value is not announced", async () => {
    ok(await org.admin.api.patch(ENDPOINT, { twenty_four_hour_time: false }));
    const queueId = await queueOf(org.member);
    ok(await org.admin.api.patch(ENDPOINT, { twenty_four_hour_time: false }));
    // A real change afterwards: once its event is queued, one for the unchanged value would be too.
    const emojiset = (await defaultsOf(org.admin)).emojiset === "google" ? "text" : "google";
    ok(await org.admin.api.patch(ENDPOINT, { emojiset }));
    const events = await pendingOf(org.member, queueId, ["realm_user_settings_defaults"]);
    expect(events.map(({ op, property, value }) => ({ op, property, value }))).toEqual([{ op: "update", property: "emojiset", value: emojiset }]);
  });

  test("parameters it does not take are listed in ignored_parameters_unsupported, and the rest applies", async () => {
    const response = ok(await org.admin.api.patch(ENDPOINT, { translate_emoticons: true, timezone: "Europe/Paris", default_language: "de", made_up_setting: 1 }));
    expect([...response.ignored_parameters_unsupported].sort()).toEqual(["default_language", "made_up_setting", "timezone"]);
    const defaults = await defaultsOf(org.admin);
    expect(defaults.translate_emoticons).toBe(true);
    expect(defaults.default_language).not.toBe("de");
  });
});

describe("PATCH /settings", () => {
  test("takes every setting of spec 2.11 for the user's own account, each announced", async () => {
    const person = await createPerson(org.owner, org.anon, "Ella Everything");
    const before = await settingsOf(person);
    const queueId = await queueOf(person);
    const response = ok(await person.api.patch("/settings", SPEC_SETTINGS));
    expect(response.ignored_parameters_unsupported).toBeUndefined();
    expect(await settingsOf(person)).toMatchObject(SPEC_SETTINGS);
    const changed = Object.keys(SPEC_SETTINGS).filter((name) => before[name] !== SPEC_SETTINGS[name]);
    const announced = (await pendingOf(person, queueId, ["user_settings"])).map((event) => event.property);
    expect(announced.sort()).toEqual(changed.sort());
  });
});

describe("PATCH /realm/user_settings_defaults: changes only new users", () => {
  test("existing users keep their settings; a user created afterwards starts from the new defaults", async () => {
    ok(await org.admin.api.patch(ENDPOINT, { emojiset: "google", color_scheme: 1 }));
    const existingBefore = await settingsOf(org.member);
    const queueId = await queueOf(org.member);
    ok(await org.admin.api.patch(ENDPOINT, { emojiset: "text", color_scheme: 2 }));
    expect(await settingsOf(org.member)).toEqual(existingBefore);
    expect(await pendingOf(org.member, queueId, ["user_settings", "update_display_settings"])).toEqual([]);
    const newcomer = await createPerson(org.owner, org.anon, "Nora Newcomer");
    expect(await settingsOf(newcomer)).toMatchObject({ emojiset: "text", color_scheme: 2 });
  });
});

describe("PATCH /realm/user_settings_defaults: refusals change nothing", () => {
  for (const role of ["moderator", "member", "guest", "bot"] as const) {
    test(`a ${role} is refused with UNAUTHORIZED_PRINCIPAL saying why, and nobody is told`, async () => {
      const before = await defaultsOf(org.admin);
      const queueId = await queueOf(org.admin);
      const response = await org[role].api.patch(ENDPOINT, { left_side_userlist: !before.left_side_userlist });
      expectError(response, "UNAUTHORIZED_PRINCIPAL", 400);
      expect(response.body.msg).toBe("Must be an organization administrator");
      expect(await defaultsOf(org.admin)).toEqual(before);
      expect(await pending(org.admin, queueId)).toEqual([]);
    });
  }

  const badValues: Array<[string, Record<string, unknown>, string]> = [
    ["a boolean that is not one", { enter_sends: "maybe" }, "enter_sends"],
    ["an integer setting given text", { color_scheme: "dark" }, "color_scheme"],
    ["an integer outside its allowed values", { desktop_icon_count_display: 5 }, "desktop_icon_count_display"],
    ["a fractional integer", { web_font_size_px: 14.5 }, "web_font_size_px"],
    ["a batching period below the minimum", { email_notifications_batching_period_seconds: 10 }, "email_notifications_batching_period_seconds"],
    ["an unknown demote policy", { demote_inactive_streams: 0 }, "demote_inactive_streams"],
    ["an unknown realm-name policy", { realm_name_in_email_notifications_policy: 4 }, "realm_name_in_email_notifications_policy"],
    ["an unknown e-mail visibility", { email_address_visibility: 6 }, "email_address_visibility"],
    ["an unknown home view", { web_home_view: "somewhere" }, "web_home_view"],
    ["an unknown emoji set", { emojiset: "comic" }, "emojiset"],
    ["an unknown animation policy", { web_animate_image_previews: "sometimes" }, "web_animate_image_previews"],
    ["an unknown sound", { notification_sound: "boom" }, "notification sound"],
    ["a huge string", { emojiset: "x".repeat(100_000) }, "emojiset"],
  ];
  for (const [name, params, mentioned] of badValues) {
    test(`${name} is a BAD_REQUEST, and the valid setting beside it is not applied either`, async () => {
      const before = await defaultsOf(org.admin);
      const queueId = await queueOf(org.admin);
      const response = await org.admin.api.patch(ENDPOINT, { ...params, fluid_layout_width: !before.fluid_layout_width });
      expectError(response, "BAD_REQUEST", 400);
      expect(response.body.msg).toContain(mentioned);
      expect(await defaultsOf(org.admin)).toEqual(before);
      expect(await pending(org.admin, queueId)).toEqual([]);
    });
  }

  test("without credentials nothing is changed", async () => {
    const before = await defaultsOf(org.admin);
    const queueId = await queueOf(org.member);
    expectError(await org.anon.patch(ENDPOINT, { enter_sends: !before.enter_sends }), "UNAUTHORIZED", 401);
    expect(await defaultsOf(org.admin)).toEqual(before);
    expect(await pendingOf(org.member, queueId, ["realm_user_settings_defaults"])).toEqual([]);
  });
});
