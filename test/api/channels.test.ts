import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, setRealmSetting, systemGroupId } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";

/* GET /streams (spec 4.9, every flag), GET /streams/{id}, its members, get_stream_id, subscription status. */

let org: Org;
const ids: Record<string, number> = {};

beforeAll(async () => {
  org = await seedOrg();
  ids.pub = await createChannel(org, org.member, {}, "a-public");
  ids.priv = await createChannel(org, org.member, { invite_only: true }, "b-private-mine");
  ids.privOther = await createChannel(org, org.member2, { invite_only: true }, "c-private-other");
  ids.joinable = await createChannel(org, org.member2, { invite_only: true, can_subscribe_group: { direct_members: [org.member.id], direct_subgroups: [] } }, "d-private-joinable");
  ids.administered = await createChannel(
    org,
    org.member2,
    { invite_only: true, can_administer_channel_group: { direct_members: [org.member.id, org.member2.id], direct_subgroups: [] } },
    "e-private-administered",
  );
  setRealmSetting(org.server, "enable_spectator_access", true);
  ids.web = await createChannel(org, org.owner, { is_web_public: true }, "f-web-public");
  ids.archived = await createChannel(org, org.admin, {}, "g-archived");
  ok(await org.admin.api.delete(`/streams/${ids.archived}`));
  ids.default = await createChannel(org, org.admin, { is_default_stream: true }, "h-default");
  ok(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: "a-public" }], principals: [org.guest.id] }));
}, 30_000);
afterAll(() => org.server.dispose());

async function listed(person: Person, params: Record<string, unknown> = {}): Promise<number[]> {
  const { streams } = ok(await person.api.get("/streams", params));
  return streams.map((stream: { stream_id: number }) => stream.stream_id);
}
const named = (...keys: string[]) => keys.map((key) => ids[key]);

describe("GET /streams", () => {
  test("by default: public and subscribed channels, not archived ones, sorted by name", async () => {
    expect(await listed(org.member)).toEqual(named("pub", "priv", "web", "default"));
    expect(await listed(org.member2)).toEqual(named("pub", "privOther", "joinable", "administered", "web", "default"));
  });

  test("include_public=false leaves only subscribed channels", async () => {
    expect(await listed(org.member, { include_public: false })).toEqual(named("pub", "priv"));
  });

  test("include_subscribed=false leaves only public channels", async () => {
    expect(await listed(org.member, { include_subscribed: false })).toEqual(named("pub", "web", "default"));
  });

  test("include_web_public adds web-public channels even when nothing else is asked for", async () => {
    expect(await listed(org.member, { include_public: false, include_subscribed: false })).toEqual([]);
    expect(await listed(org.member, { include_public: false, include_subscribed: false, include_web_public: true })).toEqual(named("web"));
  });

  test("exclude_archived=false adds archived channels", async () => {
    expect(await listed(org.member, { exclude_archived: false })).toEqual(named("pub", "priv", "web", "archived", "default"));
  });

  test("include_all: every channel the user has metadata access to; everything for administrators", async () => {
    expect(await listed(org.member, { include_all: true })).toEqual(named("pub", "priv", "joinable", "administered", "web", "default"));
    expect(await listed(org.admin, { include_all: true })).toEqual(named("pub", "priv", "privOther", "joinable", "administered", "web", "default"));
    expect(await listed(org.admin, { include_all: true, exclude_archived: false })).toContain(ids.archived);
  });

  test("include_can_access_content: channels the user could read, including private ones they may join", async () => {
    expect(await listed(org.member, { include_can_access_content: true })).toEqual(named("pub", "priv", "joinable", "web", "default"));
    // Administrators see private channels' metadata, not their content.
    expect(await listed(org.admin, { include_can_access_content: true })).toEqual(named("pub", "web", "default"));
  });

  test("include_all_active is the deprecated include_all, for administrators only", async () => {
    expect(await listed(org.owner, { include_all_active: true })).toEqual(await listed(org.owner, { include_all: true }));
    for (const person of [org.moderator, org.member, org.guest]) expectError(await person.api.get("/streams", { include_all_active: true }), "BAD_REQUEST");
  });

  test("include_default marks default channels, and only then is is_default present", async () => {
    const { streams } = ok(await org.member.api.get("/streams", { include_default: true }));
    expect(streams.map((s: any) => [s.stream_id, s.is_default])).toEqual(named("pub", "priv", "web", "default").map((id) => [id, id === ids.default]));
    const plain = ok(await org.member.api.get("/streams")).streams;
    expect(plain.every((s: any) => !("is_default" in s))).toBe(true);
  });

  test("include_owner_subscribed adds, for a bot, the channels its owner is in", async () => {
    expect(await listed(org.bot, { include_public: false })).toEqual([]);
    expect(await listed(org.bot, { include_public: false, include_owner_subscribed: true })).toEqual(named("pub", "priv"));
    // For people it means nothing.
    expect(await listed(org.member2, { include_public: false, include_owner_subscribed: true })).toEqual(named("privOther", "joinable", "administered"));
  });

  test("guests see only their subscriptions, and web-public channels when asked", async () => {
    expect(await listed(org.guest)).toEqual(named("pub"));
    expect(await listed(org.guest, { include_web_public: true })).toEqual(named("pub", "web"));
    expect(await listed(org.guest, { include_all: true })).toEqual(named("pub", "web"));
    expect(await listed(org.guest, { include_can_access_content: true })).toEqual(named("pub", "web"));
  });

  test("every channel object carries every field of spec 2.1", async () => {
    const { streams } = ok(await org.member.api.get("/streams"));
    for (const stream of streams) {
      expect(Object.keys(stream).sort()).toEqual(
        [
          "stream_id", "name", "is_archived", "description", "rendered_description", "date_created", "creator_id", "invite_only", "is_web_public",
          "stream_post_policy", "is_announcement_only", "message_retention_days", "history_public_to_subscribers", "first_message_id",
          "is_recently_active", "stream_weekly_traffic", "can_add_subscribers_group", "can_remove_subscribers_group",
          "can_administer_channel_group", "can_send_message_group", "can_subscribe_group",
        ].sort(),
      );
    }
  });

  test("refuses flags that are not booleans", async () => {
    expectError(await org.member.api.get("/streams", { include_all: "yes" }), "BAD_REQUEST");
  });
});

describe("GET /streams/{stream_id}", () => {
  test("needs metadata access; inaccessible and unknown channels get the same answer", async () => {
    expect(ok(await org.member.api.get(`/streams/${ids.priv}`)).stream).toMatchObject({ stream_id: ids.priv, name: "b-private-mine", invite_only: true });
    expect(ok(await org.member.api.get(`/streams/${ids.administered}`)).stream.stream_id).toBe(ids.administered);
    expect(ok(await org.admin.api.get(`/streams/${ids.privOther}`)).stream.stream_id).toBe(ids.privOther);
    expect(ok(await org.member.api.get(`/streams/${ids.archived}`)).stream.is_archived).toBe(true);
    const hidden = await org.member.api.get(`/streams/${ids.privOther}`);
    const unknown = await org.member.api.get("/streams/999999");
    expectError(hidden, "BAD_REQUEST");
    expectError(unknown, "BAD_REQUEST");
    expect(hidden.body.msg).toBe(unknown.body.msg);
  });

  test("guests reach only web-public channels and their subscriptions", async () => {
    expect(ok(await org.guest.api.get(`/streams/${ids.web}`)).stream.stream_id).toBe(ids.web);
    expect(ok(await org.guest.api.get(`/streams/${ids.pub}`)).stream.stream_id).toBe(ids.pub);
    expectError(await org.guest.api.get(`/streams/${ids.default}`), "BAD_REQUEST");
  });

  test("refuses an ID that is not a number", async () => {
    expectError(await org.member.api.get("/streams/abc"), "BAD_REQUEST");
  });
});

describe("subscribers and look-ups", () => {
  test("GET /streams/{id}/members lists active subscribers to those with metadata access", async () => {
    expect(ok(await org.member2.api.get(`/streams/${ids.pub}/members`)).subscribers).toEqual([org.member.id, org.guest.id].sort((a, b) => a - b));
    expect(ok(await org.admin.api.get(`/streams/${ids.privOther}/members`)).subscribers).toEqual([org.member2.id]);
    expectError(await org.member.api.get(`/streams/${ids.privOther}/members`), "BAD_REQUEST");
    expectError(await org.guest.api.get(`/streams/${ids.default}/members`), "BAD_REQUEST");
  });

  test("GET /get_stream_id finds channels the caller can read, by name in any case", async () => {
    expect(ok(await org.member.api.get("/get_stream_id", { stream: "A-PUBLIC" })).stream_id).toBe(ids.pub);
    expectError(await org.member.api.get("/get_stream_id", { stream: "c-private-other" }), "BAD_REQUEST");
    expectError(await org.member.api.get("/get_stream_id", { stream: "no-such-channel" }), "BAD_REQUEST");
    expectError(await org.member.api.get("/get_stream_id"), "BAD_REQUEST");
  });

  test("GET /users/{user_id}/subscriptions/{stream_id} says whether someone is subscribed", async () => {
    expect(ok(await org.member2.api.get(`/users/${org.member.id}/subscriptions/${ids.pub}`)).is_subscribed).toBe(true);
    expect(ok(await org.member2.api.get(`/users/${org.owner.id}/subscriptions/${ids.pub}`)).is_subscribed).toBe(false);
    expectError(await org.member.api.get(`/users/${org.member2.id}/subscriptions/${ids.privOther}`), "BAD_REQUEST");
    expectError(await org.member.api.get(`/users/999999/subscriptions/${ids.pub}`), "BAD_REQUEST");
  });
});

test("group-setting values show named groups by ID and anonymous ones by members", async () => {
  const stream = ok(await org.member.api.get(`/streams/${ids.joinable}`)).stream;
  expect(stream.can_subscribe_group).toEqual({ direct_members: [org.member.id], direct_subgroups: [] });
  expect(stream.can_send_message_group).toBe(systemGroupId(org.server, "role:everyone"));
});
