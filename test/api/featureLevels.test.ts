import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel } from "../helpers/channels";
import { ok, seedOrg, type Org } from "../helpers/seed";
import { pendingOf, SEED_TIMEOUT_MS } from "../events/support";

/**
 * Parley reports feature level 378: each **Changes** note of the reference from level 363 on,
 * one test each here where no other file already pins it down (those are named below).
 *   365 last_moved_timestamp: test/api/editMessage.test.ts
 *   368 PATCH /saved_snippets/{id}: test/api/savedSnippets.test.ts
 *   370 "(no topic)" in sends and edits: test/api/sendMessage.test.ts, editMessage.test.ts
 *   377 peer_remove before a deactivation's realm_user event: test/api/deactivation.test.ts
 *   378 (un)archiving events by archived_channels: test/api/channelEvents.test.ts
 */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const register = async (params: Record<string, unknown>) => ok(await org.member.api.post("/register", params));

describe("feature levels 363 to 378", () => {
  test("register and server settings report feature level 378", async () => {
    expect((await register({ fetch_event_types: [] })).zulip_feature_level).toBe(378);
    const settings = ok(await org.anon.get("/server_settings"));
    expect([settings.zulip_feature_level, settings.svc_feature_level]).toEqual([378, 378]);
  });

  test("363: no is_billing_admin on users; billing is the can_manage_billing_group setting, with realm_billing", async () => {
    const state = await register({ fetch_event_types: ["realm", "realm_user", "realm_billing"] });
    expect(state.realm_users.filter((user: Record<string, unknown>) => "is_billing_admin" in user)).toEqual([]);
    expect(ok(await org.member.api.get("/users/me"))).not.toHaveProperty("is_billing_admin");
    expect(Number.isInteger(state.realm_can_manage_billing_group)).toBe(true);
    expect(state.realm_billing).toEqual({ has_pending_sponsorship_request: false });
  });

  test("364: no dense_mode setting, modern or legacy", async () => {
    const state = await register({ fetch_event_types: ["user_settings", "update_display_settings", "realm_user_settings_defaults"] });
    expect(state.user_settings).not.toHaveProperty("dense_mode");
    expect(state).not.toHaveProperty("dense_mode");
    expect(state.realm_user_settings_defaults).not.toHaveProperty("dense_mode");
  });

  test("367: can_resolve_topics_group in the realm section", async () => {
    expect(Number.isInteger((await register({ fetch_event_types: ["realm"] })).realm_can_resolve_topics_group)).toBe(true);
  });

  test("369: onboarding_steps brings navigation_tour_video_url (none configured)", async () => {
    expect(await register({ fetch_event_types: ["onboarding_steps"] })).toMatchObject({ onboarding_steps: [], navigation_tour_video_url: null });
  });

  test('372: typing in "(no topic)" or the empty topic\'s display name is typing in the empty topic', async () => {
    const channel = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] });
    const { queue_id, realm_empty_topic_display_name: displayName } = ok(
      await org.member2.api.post("/register", { event_types: ["typing"], fetch_event_types: ["realm"], client_capabilities: { stream_typing_notifications: true, empty_topic_name: true } }),
    );
    for (const topic of ["(no topic)", displayName, "  (no topic) "]) ok(await org.member.api.post("/typing", { type: "channel", op: "start", stream_id: channel, topic }));
    const events = await pendingOf(org.member2, queue_id, ["typing"]);
    expect(events.map((event) => event.topic)).toEqual(["", "", ""]);
  });

  test("378: register's streams lists archived channels, to clients that declare archived_channels only", async () => {
    const channel = await createChannel(org, org.member);
    ok(await org.admin.api.delete(`/streams/${channel}`));
    const modern = await register({ fetch_event_types: ["stream"], client_capabilities: { archived_channels: true } });
    expect(modern.streams.find((each: { stream_id: number }) => each.stream_id === channel)).toMatchObject({ is_archived: true });
    const legacy = await register({ fetch_event_types: ["stream"] });
    expect(legacy.streams.map((each: { stream_id: number }) => each.stream_id)).not.toContain(channel);
  });
});
