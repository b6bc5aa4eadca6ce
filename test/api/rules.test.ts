import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { channelCount, createChannel, expectNoChannelChange, getChannel, queryServer, subscriptionCount, uniqueName } from "../helpers/channels";
import { type Org, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { pendingOf } from "../events/support";

/*
 * Rules the first tries found off (issue 13): first_message_id, non-fatal subscribe refusals,
 * the error codes of admin- and owner-only actions, register's sections and the svc_ twins.
 */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, 60_000);
afterAll(() => org.server.dispose());

const nothingChanged = (attempt: () => Promise<void>) => expectNoChannelChange(org.server, attempt);

const messageIdsIn = (channelId: number) => queryServer<{ id: number }>(org.server, "SELECT id FROM messages WHERE channel_id = ? ORDER BY id", channelId).map((row) => row.id);

describe("first_message_id", () => {
  test("is null once a channel's every message is deleted, and the stream update carries null", async () => {
    const id = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] });
    const queue = ok(await org.member2.api.post("/register", { event_types: ["stream"] })).queue_id;
    const ids = messageIdsIn(id);
    expect((await getChannel(org.member, id)).first_message_id).toBe(ids[0]);
    for (const messageId of ids) ok(await org.admin.api.delete(`/messages/${messageId}`));
    expect((await getChannel(org.member, id)).first_message_id).toBeNull();
    const updates = await pendingOf(org.member2, queue, ["stream"]);
    expect(updates.at(-1)).toMatchObject({ type: "stream", op: "update", stream_id: id, property: "first_message_id", value: null });
    // The next message is the first again.
    const next = await sendOk(org.member, channelMessage(id, "again", "hello"));
    expect((await getChannel(org.member, id)).first_message_id).toBe(next.id);
  });

  test("a move that empties a channel leaves it null, and the destination follows the oldest message", async () => {
    const from = await createChannel(org, org.member);
    const to = await createChannel(org, org.member);
    const [notice] = messageIdsIn(from);
    const queue = ok(await org.member.api.post("/register", { event_types: ["stream"] })).queue_id;
    ok(await org.admin.api.patch(`/messages/${notice}`, { stream_id: to, propagate_mode: "change_all", send_notification_to_old_thread: false, send_notification_to_new_thread: false }));
    expect((await getChannel(org.member, from)).first_message_id).toBeNull();
    expect((await getChannel(org.member, to)).first_message_id).toBe(notice);
    const updates = (await pendingOf(org.member, queue, ["stream"])).filter((event) => event.property === "first_message_id");
    expect(updates.map((event) => [event.stream_id, event.value])).toEqual([
      [from, null],
      [to, notice],
    ]);
  });
});

describe("subscribe with authorization_errors_fatal=false", () => {
  test("a guest's refusals are listed in unauthorized with status 200, and nothing else changes", async () => {
    const open = uniqueName("open");
    await createChannel(org, org.member, {}, open);
    const fresh = uniqueName("fresh");
    await nothingChanged(async () => {
      const body = ok(await org.guest.api.post("/users/me/subscriptions", { subscriptions: [{ name: open }, { name: fresh }], authorization_errors_fatal: false }));
      expect(body).toEqual({ result: "success", msg: "", subscribed: {}, already_subscribed: {}, unauthorized: [open, fresh] });
    });
  });

  test("with fatal errors (the default) the guest is refused, naming the channel", async () => {
    const open = uniqueName("open");
    await createChannel(org, org.member, {}, open);
    await nothingChanged(async () => {
      const response = await org.guest.api.post("/users/me/subscriptions", { subscriptions: [{ name: open }] });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe(`Unable to access channel (${open}).`);
      expectError(await org.guest.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }] }), "BAD_REQUEST");
    });
  });

  test("a guest in a channel may not add others to it: listed, or refused when fatal", async () => {
    const shared = uniqueName("shared");
    await createChannel(org, org.member, { principals: [org.member.id, org.guest.id] }, shared);
    await nothingChanged(async () => {
      const body = ok(await org.guest.api.post("/users/me/subscriptions", { subscriptions: [{ name: shared }], principals: [org.member2.id], authorization_errors_fatal: false }));
      expect(body).toEqual({ result: "success", msg: "", subscribed: {}, already_subscribed: {}, unauthorized: [shared] });
      expectError(await org.guest.api.post("/users/me/subscriptions", { subscriptions: [{ name: shared }], principals: [org.member2.id] }), "BAD_REQUEST");
    });
    // Subscribing themselves to a channel they are in is no refusal.
    const self = ok(await org.guest.api.post("/users/me/subscriptions", { subscriptions: [{ name: shared }], authorization_errors_fatal: false }));
    expect(self).toEqual({ result: "success", msg: "", subscribed: {}, already_subscribed: { [org.guest.id]: [shared] }, unauthorized: [] });
  });

  test("a member: unreachable channels are listed, the reachable ones go ahead", async () => {
    const secret = uniqueName("secret");
    await createChannel(org, org.member, { invite_only: true }, secret);
    const open = uniqueName("open");
    await createChannel(org, org.member, {}, open);
    const body = ok(await org.member2.api.post("/users/me/subscriptions", { subscriptions: [{ name: secret }, { name: open }], principals: [org.moderator.id], authorization_errors_fatal: false }));
    expect(body).toEqual({ result: "success", msg: "", subscribed: { [org.moderator.id]: [open] }, already_subscribed: {}, unauthorized: [secret] });
  });

  test("invalid input is still an error", async () => {
    await nothingChanged(async () => {
      expectError(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: uniqueName() }], invite_only: true, is_default_stream: true, authorization_errors_fatal: false }), "BAD_REQUEST");
    });
  });
});

describe("refusals of admin- and owner-only actions", () => {
  const unauthorizedPrincipal = (response: { status: number; body: any }, msg: string) => {
    expectError(response, "UNAUTHORIZED_PRINCIPAL", 400);
    expect(response.body.msg).toBe(msg);
  };

  test("organization defaults, linkifiers, default channels: Must be an organization administrator", async () => {
    const id = await createChannel(org, org.member);
    for (const person of [org.moderator, org.member, org.guest, org.bot]) {
      unauthorizedPrincipal(await person.api.patch("/realm/user_settings_defaults", { enter_sends: true }), "Must be an organization administrator");
      unauthorizedPrincipal(await person.api.post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/{id}" }), "Must be an organization administrator");
      unauthorizedPrincipal(await person.api.post("/default_streams", { stream_id: id }), "Must be an organization administrator");
    }
    expect(ok(await org.member.api.get("/realm/linkifiers")).linkifiers).toEqual([]);
  });

  test("a channel's default status, changed by its non-administrator creator: Must be an organization administrator", async () => {
    const id = await createChannel(org, org.member);
    unauthorizedPrincipal(await org.member.api.patch(`/streams/${id}`, { is_default_stream: true }), "Must be an organization administrator");
    expect(ok(await org.admin.api.get("/streams", { include_default: true })).streams.find((c: any) => c.stream_id === id).is_default).toBe(false);
  });

  test("message retention, set by a non-owner on a new or existing channel: Must be an organization owner", async () => {
    const name = uniqueName();
    await nothingChanged(async () => {
      unauthorizedPrincipal(await org.admin.api.post("/users/me/subscriptions", { subscriptions: [{ name }], message_retention_days: 30 }), "Must be an organization owner");
    });
    const id = await createChannel(org, org.admin);
    unauthorizedPrincipal(await org.admin.api.patch(`/streams/${id}`, { message_retention_days: 30 }), "Must be an organization owner");
    expect((await getChannel(org.admin, id)).message_retention_days).toBeNull();
  });

  test("an administrator touching an owner's role or account: Must be an organization owner", async () => {
    unauthorizedPrincipal(await org.admin.api.patch(`/users/${org.owner.id}`, { role: 200 }), "Must be an organization owner");
    unauthorizedPrincipal(await org.admin.api.patch(`/users/${org.member.id}`, { role: 100 }), "Must be an organization owner");
    unauthorizedPrincipal(await org.admin.api.delete(`/users/${org.owner.id}`), "Must be an organization owner");
    const person = ok(await org.owner.api.get(`/users/${org.owner.id}`)).user;
    expect(person).toMatchObject({ role: 100, is_active: true });
  });

  test("reactivating needs an administrator; deactivating and changing accounts stay BAD_REQUEST, as the reference answers", async () => {
    unauthorizedPrincipal(await org.moderator.api.post(`/users/${org.member.id}/reactivate`), "Must be an organization administrator");
    const deactivate = await org.moderator.api.delete(`/users/${org.member2.id}`);
    expectError(deactivate, "BAD_REQUEST");
    expect(deactivate.body.msg).toBe("Only organization administrators can deactivate users.");
    expectError(await org.moderator.api.patch(`/users/${org.member2.id}`, { full_name: "Renamed" }), "BAD_REQUEST");
    expect(ok(await org.member.api.get(`/users/${org.member2.id}`)).user).toMatchObject({ full_name: "Max Member", is_active: true });
  });

  test("deleting a topic: UNAUTHORIZED_PRINCIPAL for every role below administrator", async () => {
    const id = await createChannel(org, org.member);
    for (const person of [org.moderator, org.member, org.bot]) {
      unauthorizedPrincipal(await person.api.post(`/streams/${id}/delete_topic`, { topic_name: "channel events" }), "Must be an organization administrator");
    }
    expect(messageIdsIn(id).length).toBe(1);
  });
});

/** Every section a client may name in fetch_event_types (the reference's register response), with the keys it brings. */
const SECTIONS: Record<string, string[]> = {
  alert_words: ["alert_words"],
  custom_profile_fields: ["custom_profile_fields", "custom_profile_field_types"],
  onboarding_steps: ["onboarding_steps", "navigation_tour_video_url"],
  message: ["max_message_id"],
  muted_topics: ["muted_topics"],
  muted_users: ["muted_users"],
  presence: ["presences", "presence_last_update_id", "server_timestamp"],
  realm_domains: ["realm_domains"],
  realm_emoji: ["realm_emoji"],
  realm_linkifiers: ["realm_linkifiers"],
  realm_filters: ["realm_filters"],
  realm_playgrounds: ["realm_playgrounds"],
  realm_user_groups: ["realm_user_groups"],
  realm_bot: ["realm_bots"],
  realm_embedded_bots: ["realm_embedded_bots"],
  realm_incoming_webhook_bots: ["realm_incoming_webhook_bots"],
  recent_private_conversations: ["recent_private_conversations"],
  saved_snippets: ["saved_snippets"],
  subscription: ["subscriptions", "unsubscribed", "never_subscribed"],
  starred_messages: ["starred_messages"],
  stream: ["streams"],
  default_streams: ["realm_default_streams"],
  default_stream_groups: ["realm_default_stream_groups"],
  stop_words: ["stop_words"],
  user_status: ["user_status"],
  user_settings: ["user_settings"],
  user_topic: ["user_topics"],
  video_calls: ["has_zoom_token"],
  giphy: ["giphy_api_key"],
  realm_billing: ["realm_billing"],
  realm_user_settings_defaults: ["realm_user_settings_defaults"],
  realm_user: ["realm_users", "realm_non_active_users", "user_id", "is_admin", "cross_realm_bots"],
  realm: ["realm_name", "realm_empty_topic_display_name", "max_message_length"],
  drafts: ["drafts"],
  update_display_settings: ["emojiset_choices"],
  update_global_notifications: ["available_notification_sounds"],
};

describe("POST /register sections", () => {
  test("each section asked for alone brings its keys", async () => {
    for (const [section, keys] of Object.entries(SECTIONS)) {
      const state = ok(await org.member.api.post("/register", { fetch_event_types: [section], event_types: [section] }));
      for (const key of keys) expect({ section, key, present: key in state }).toEqual({ section, key, present: true });
    }
  });

  test("features Parley lacks answer the reference's empty values", async () => {
    const state = ok(await org.member.api.post("/register", { fetch_event_types: Object.keys(SECTIONS).filter((name) => name !== "user_topic") }));
    expect(state).toMatchObject({
      alert_words: [],
      custom_profile_fields: [],
      onboarding_steps: [],
      navigation_tour_video_url: null,
      muted_users: [],
      presences: {},
      presence_last_update_id: -1,
      realm_domains: [],
      realm_emoji: {},
      realm_filters: [],
      realm_playgrounds: [],
      realm_embedded_bots: [],
      realm_incoming_webhook_bots: [],
      realm_default_stream_groups: [],
      stop_words: [],
      has_zoom_token: false,
      giphy_api_key: "",
      realm_billing: { has_pending_sponsorship_request: false },
      muted_topics: [],
    });
    expect(state.custom_profile_field_types.SHORT_TEXT).toEqual({ id: 1, name: "Text (short)" });
    expect(typeof state.server_timestamp).toBe("number");
  });

  test("muted_topics (legacy) lists muted topics, and only when user_topic is not asked for by name too", async () => {
    const both = ok(await org.member.api.post("/register", { fetch_event_types: ["muted_topics", "user_topic"] }));
    expect(both).not.toHaveProperty("muted_topics");
    expect(both).toHaveProperty("user_topics");
    // Not named, so not replaced: with fetch_event_types omitted both come, as muted_topics events do.
    expect(Array.isArray(ok(await org.member.api.post("/register", {})).muted_topics)).toBe(true);
    const legacy = ok(await org.member.api.post("/register", { fetch_event_types: ["muted_topics"] }));
    expect(Array.isArray(legacy.muted_topics)).toBe(true);
  });

  test("every zulip_ key of register and GET /server_settings has its svc_ twin with the same value", async () => {
    const state = ok(await org.member.api.post("/register", {}));
    const settings = ok(await org.anon.get("/server_settings"));
    for (const body of [state, settings]) {
      const keys = Object.keys(body).filter((key) => key.includes("zulip_"));
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect({ key, twin: body[key.replace("zulip_", "svc_")] }).toEqual({ key, twin: body[key] });
    }
  });
});
