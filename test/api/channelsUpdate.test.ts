import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, getChannel, queryServer, setRealmSetting, subscribe, systemGroupId, uniqueName } from "../helpers/channels";
import { type Org, expectError, ok, seedOrg } from "../helpers/seed";

/* PATCH /streams/{id}, archiving and unarchiving, and the default channels endpoints. */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, 30_000);
afterAll(() => org.server.dispose());

const isDefault = async (id: number) => ok(await org.admin.api.get("/streams", { include_default: true, exclude_archived: false, include_all: true })).streams.find((s: any) => s.stream_id === id)?.is_default;

describe("who may change a channel", () => {
  test("its administrators: the creator by default, and organization administrators", async () => {
    const id = await createChannel(org, org.member);
    ok(await org.member.api.patch(`/streams/${id}`, { description: "by the creator" }));
    ok(await org.admin.api.patch(`/streams/${id}`, { description: "by an admin" }));
    expect((await getChannel(org.member, id)).description).toBe("by an admin");
  });

  test("others who can see it are told they may not; others learn nothing", async () => {
    const open = await createChannel(org, org.member);
    const hidden = await createChannel(org, org.member, { invite_only: true });
    for (const person of [org.moderator, org.member2, org.bot]) {
      const refused = await person.api.patch(`/streams/${open}`, { description: "x" });
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe("You do not have permission to administer this channel.");
      const invisible = await person.api.patch(`/streams/${hidden}`, { description: "x" });
      expectError(invisible, "BAD_REQUEST");
      expect(invisible.body.msg).toBe("Invalid channel ID");
    }
    expectError(await org.guest.api.patch(`/streams/${open}`, { description: "x" }), "BAD_REQUEST");
    expectError(await org.member.api.patch("/streams/999999", { description: "x" }), "BAD_REQUEST");
    expect((await getChannel(org.member, open)).description).toBe("");
  });

  test("guests never administer a channel, even when named in its administrators", async () => {
    const id = await createChannel(org, org.member, { can_administer_channel_group: { direct_members: [org.member.id, org.guest.id], direct_subgroups: [] }, principals: [org.member.id, org.guest.id] });
    expectError(await org.guest.api.patch(`/streams/${id}`, { description: "x" }), "BAD_REQUEST");
  });

  test("an empty request changes nothing and succeeds", async () => {
    const id = await createChannel(org, org.member);
    const before = await getChannel(org.member, id);
    const { queue_id } = ok(await org.member.api.post("/register", { fetch_event_types: [] }));
    ok(await org.member.api.patch(`/streams/${id}`, {}));
    expect(await getChannel(org.member, id)).toEqual(before);
    expect(ok(await org.member.api.get("/events", { queue_id, last_event_id: -1, dont_block: true })).events).toEqual([]);
  });
});

describe("name and description", () => {
  test("renames, trimming spaces; changing only the case is allowed", async () => {
    const id = await createChannel(org, org.member);
    const name = uniqueName("renamed");
    ok(await org.member.api.patch(`/streams/${id}`, { new_name: `  ${name} ` }));
    expect((await getChannel(org.member, id)).name).toBe(name);
    ok(await org.member.api.patch(`/streams/${id}`, { new_name: name.toUpperCase() }));
    expect((await getChannel(org.member, id)).name).toBe(name.toUpperCase());
  });

  test("refuses the same name, a taken name in any case, and invalid names", async () => {
    const taken = uniqueName("taken");
    await subscribe(org.member2, [taken]);
    const id = await createChannel(org, org.member);
    const original = (await getChannel(org.member, id)).name;
    for (const new_name of [original, taken.toUpperCase(), "", "x".repeat(61), "bad\u0000name"]) {
      expectError(await org.member.api.patch(`/streams/${id}`, { new_name }), "BAD_REQUEST");
    }
    expect((await getChannel(org.member, id)).name).toBe(original);
  });

  test("sets the description and its rendering; line breaks become spaces; limit 1024", async () => {
    const id = await createChannel(org, org.member);
    ok(await org.member.api.patch(`/streams/${id}`, { description: "Line one\nline <two>" }));
    expect(await getChannel(org.member, id)).toMatchObject({ description: "Line one line <two>", rendered_description: "<p>Line one line &lt;two&gt;</p>" });
    expectError(await org.member.api.patch(`/streams/${id}`, { description: "d".repeat(1025) }), "BAD_REQUEST");
    // The limit counts characters: 1024 emoji are twice as many UTF-16 units, and still fit.
    ok(await org.member.api.patch(`/streams/${id}`, { description: "🙂".repeat(1024) }));
    ok(await org.member.api.patch(`/streams/${id}`, { description: "" }));
    expect(await getChannel(org.member, id)).toMatchObject({ description: "", rendered_description: "" });
  });

  test("descriptions are Markdown, rendered by the message renderer, raw HTML escaped", async () => {
    const id = await createChannel(org, org.member);
    ok(await org.member.api.patch(`/streams/${id}`, { description: "**Bold** and `code` <script>x</script> :smile:" }));
    const { rendered_description } = await getChannel(org.member, id);
    expect(rendered_description).toContain("<strong>Bold</strong>");
    expect(rendered_description).toContain("<code>code</code>");
    expect(rendered_description).toContain("&lt;script&gt;");
    expect(rendered_description).not.toContain("<script>");
    expect(rendered_description).toContain('class="emoji');
  });

  test("a refused change leaves the others in the same request undone", async () => {
    const id = await createChannel(org, org.member);
    expectError(await org.member.api.patch(`/streams/${id}`, { description: "changed", message_retention_days: 10 }), "UNAUTHORIZED_PRINCIPAL");
    expect((await getChannel(org.member, id)).description).toBe("");
  });
});

describe("privacy", () => {
  test("private protects history by default, public shares it; shared history can be asked for", async () => {
    const id = await createChannel(org, org.member);
    ok(await org.member.api.patch(`/streams/${id}`, { is_private: true }));
    expect(await getChannel(org.member, id)).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    ok(await org.member.api.patch(`/streams/${id}`, { history_public_to_subscribers: true }));
    expect(await getChannel(org.member, id)).toMatchObject({ invite_only: true, history_public_to_subscribers: true });
    ok(await org.member.api.patch(`/streams/${id}`, { is_private: false }));
    expect(await getChannel(org.member, id)).toMatchObject({ invite_only: false, history_public_to_subscribers: true });
  });

  test("refuses public channels without shared history and private web-public channels", async () => {
    const id = await createChannel(org, org.owner);
    expectError(await org.owner.api.patch(`/streams/${id}`, { history_public_to_subscribers: false }), "BAD_REQUEST");
    expectError(await org.owner.api.patch(`/streams/${id}`, { is_private: true, is_web_public: true }), "BAD_REQUEST");
    expect((await getChannel(org.owner, id)).invite_only).toBe(false);
  });

  test("changing privacy needs content access, so administrators must be subscribed to private channels", async () => {
    const id = await createChannel(org, org.member, { invite_only: true });
    expectError(await org.admin.api.patch(`/streams/${id}`, { is_private: false }), "BAD_REQUEST");
    // Metadata-level settings still work for them.
    ok(await org.admin.api.patch(`/streams/${id}`, { description: "admin was here" }));
    expect((await getChannel(org.admin, id)).invite_only).toBe(true);
  });

  test("making a channel public or private needs the matching channel-creation permission", async () => {
    const id = await createChannel(org, org.member);
    setRealmSetting(org.server, "can_create_private_channel_group", systemGroupId(org.server, "role:administrators"));
    try {
      expectError(await org.member.api.patch(`/streams/${id}`, { is_private: true }), "BAD_REQUEST");
    } finally {
      setRealmSetting(org.server, "can_create_private_channel_group", systemGroupId(org.server, "role:members"));
    }
    expect((await getChannel(org.member, id)).invite_only).toBe(false);
  });

  test("web-public needs spectator access and can_create_web_public_channel_group", async () => {
    const id = await createChannel(org, org.member);
    expectError(await org.owner.api.patch(`/streams/${id}`, { is_web_public: true }), "BAD_REQUEST");
    setRealmSetting(org.server, "enable_spectator_access", true);
    try {
      expectError(await org.admin.api.patch(`/streams/${id}`, { is_web_public: true }), "BAD_REQUEST");
      ok(await org.owner.api.patch(`/streams/${id}`, { is_web_public: true }));
      expect((await getChannel(org.guest, id)).is_web_public).toBe(true);
    } finally {
      setRealmSetting(org.server, "enable_spectator_access", false);
    }
  });

  test("a default channel cannot become private unless it stops being default in the same request", async () => {
    const id = await createChannel(org, org.admin, { is_default_stream: true });
    expectError(await org.admin.api.patch(`/streams/${id}`, { is_private: true }), "BAD_REQUEST");
    ok(await org.admin.api.patch(`/streams/${id}`, { is_private: true, is_default_stream: false }));
    expect(await isDefault(id)).toBe(false);
  });
});

describe("default status and retention", () => {
  test("administrators set and clear is_default_stream; channel administrators may not", async () => {
    const id = await createChannel(org, org.member);
    expectError(await org.member.api.patch(`/streams/${id}`, { is_default_stream: true }), "UNAUTHORIZED_PRINCIPAL");
    ok(await org.admin.api.patch(`/streams/${id}`, { is_default_stream: true }));
    expect(await isDefault(id)).toBe(true);
    ok(await org.admin.api.patch(`/streams/${id}`, { is_default_stream: false }));
    expect(await isDefault(id)).toBe(false);
  });

  test("only owners change message_retention_days", async () => {
    const id = await createChannel(org, org.admin);
    expectError(await org.admin.api.patch(`/streams/${id}`, { message_retention_days: 7 }), "UNAUTHORIZED_PRINCIPAL");
    for (const [value, stored] of [[7, 7], ["unlimited", -1], ["realm_default", null]] as const) {
      ok(await org.owner.api.patch(`/streams/${id}`, { message_retention_days: value }));
      expect((await getChannel(org.owner, id)).message_retention_days).toBe(stored);
    }
    expectError(await org.owner.api.patch(`/streams/${id}`, { message_retention_days: "never" }), "BAD_REQUEST");
  });
});

describe("group-settings with {new, old}", () => {
  test("sets a value, checks old against the current one, and refuses a stale old", async () => {
    const id = await createChannel(org, org.member);
    const everyone = systemGroupId(org.server, "role:everyone");
    const moderators = systemGroupId(org.server, "role:moderators");
    ok(await org.member.api.patch(`/streams/${id}`, { can_send_message_group: { new: moderators, old: everyone } }));
    expect(await getChannel(org.member, id)).toMatchObject({ can_send_message_group: moderators, stream_post_policy: 4 });
    const stale = await org.member.api.patch(`/streams/${id}`, { can_send_message_group: { new: everyone, old: everyone } });
    expectError(stale, "BAD_REQUEST");
    expect((await getChannel(org.member, id)).can_send_message_group).toBe(moderators);
    const anonymous = { direct_members: [org.member2.id], direct_subgroups: [moderators] };
    ok(await org.member.api.patch(`/streams/${id}`, { can_send_message_group: { new: anonymous, old: moderators } }));
    expect((await getChannel(org.member, id)).can_send_message_group).toEqual(anonymous);
    ok(await org.member.api.patch(`/streams/${id}`, { can_send_message_group: { new: everyone, old: { direct_subgroups: [moderators], direct_members: [org.member2.id] } } }));
    expect((await getChannel(org.member, id)).can_send_message_group).toBe(everyone);
  });

  test("an anonymous value is edited in place and dropped when the setting moves to a named group", async () => {
    const id = await createChannel(org, org.member);
    const groupOf = () => queryServer<{ id: number }>(org.server, "SELECT can_remove_subscribers_group AS id FROM channels WHERE id = ?", id)[0].id;
    ok(await org.member.api.patch(`/streams/${id}`, { can_remove_subscribers_group: { new: { direct_members: [org.member.id], direct_subgroups: [] } } }));
    const first = groupOf();
    ok(await org.member.api.patch(`/streams/${id}`, { can_remove_subscribers_group: { new: { direct_members: [org.member2.id, org.member.id], direct_subgroups: [] } } }));
    expect(groupOf()).toBe(first);
    ok(await org.member.api.patch(`/streams/${id}`, { can_remove_subscribers_group: { new: systemGroupId(org.server, "role:administrators") } }));
    expect(queryServer(org.server, "SELECT id FROM user_groups WHERE id = ?", first)).toEqual([]);
  });

  test("can_add_subscribers_group and can_subscribe_group need content access; the others metadata access", async () => {
    const id = await createChannel(org, org.member, { invite_only: true });
    const moderators = systemGroupId(org.server, "role:moderators");
    expectError(await org.admin.api.patch(`/streams/${id}`, { can_add_subscribers_group: { new: moderators } }), "BAD_REQUEST");
    expectError(await org.admin.api.patch(`/streams/${id}`, { can_subscribe_group: { new: moderators } }), "BAD_REQUEST");
    ok(await org.member.api.patch(`/streams/${id}`, { can_add_subscribers_group: { new: moderators } }));
    for (const setting of ["can_remove_subscribers_group", "can_administer_channel_group", "can_send_message_group"]) {
      ok(await org.admin.api.patch(`/streams/${id}`, { [setting]: { new: moderators } }));
    }
  });

  test("handing administration to someone else takes it from the creator", async () => {
    const id = await createChannel(org, org.member);
    ok(await org.member.api.patch(`/streams/${id}`, { can_administer_channel_group: { new: { direct_members: [org.member2.id], direct_subgroups: [] } } }));
    expectError(await org.member.api.patch(`/streams/${id}`, { description: "x" }), "BAD_REQUEST");
    ok(await org.member2.api.patch(`/streams/${id}`, { description: "x" }));
  });

  test("refuses forbidden groups and malformed values, changing nothing", async () => {
    const id = await createChannel(org, org.member);
    const before = await getChannel(org.member, id);
    for (const body of [
      { can_subscribe_group: { new: systemGroupId(org.server, "role:everyone") } },
      { can_send_message_group: { new: systemGroupId(org.server, "role:internet") } },
      { can_send_message_group: { new: 999_999 } },
      { can_send_message_group: { old: 1 } },
      { can_send_message_group: 5 },
      { can_send_message_group: "nope" },
      { description: "also refused", can_send_message_group: { new: { direct_members: [999_999], direct_subgroups: [] } } },
    ]) {
      expectError(await org.member.api.patch(`/streams/${id}`, body), "BAD_REQUEST");
    }
    expect(await getChannel(org.member, id)).toEqual(before);
  });
});

describe("archiving", () => {
  test("channel administrators archive and unarchive; others may not", async () => {
    const id = await createChannel(org, org.member);
    for (const person of [org.member2, org.moderator, org.guest]) expectError(await person.api.delete(`/streams/${id}`), "BAD_REQUEST");
    ok(await org.member.api.delete(`/streams/${id}`));
    expect((await getChannel(org.member, id)).is_archived).toBe(true);
    expectError(await org.member.api.delete(`/streams/${id}`), "BAD_REQUEST");
    expectError(await org.member2.api.patch(`/streams/${id}`, { is_archived: false }), "BAD_REQUEST");
    ok(await org.member.api.patch(`/streams/${id}`, { is_archived: false }));
    expect((await getChannel(org.member, id)).is_archived).toBe(false);
  });

  test("archived channels keep their subscribers and can still be changed", async () => {
    const id = await createChannel(org, org.admin, { principals: [org.admin.id, org.member.id] });
    ok(await org.admin.api.delete(`/streams/${id}`));
    expect(ok(await org.admin.api.get(`/streams/${id}/members`)).subscribers).toContain(org.member.id);
    ok(await org.admin.api.patch(`/streams/${id}`, { new_name: uniqueName("archived"), is_private: true }));
    expect((await getChannel(org.admin, id)).invite_only).toBe(true);
  });

  test("archiving ends default status and the announcements role", async () => {
    const id = await createChannel(org, org.admin, { is_default_stream: true });
    setRealmSetting(org.server, "new_stream_announcements_stream_id", id);
    ok(await org.admin.api.delete(`/streams/${id}`));
    expect(await isDefault(id)).toBe(false);
    const settings = JSON.parse(queryServer<{ settings: string }>(org.server, "SELECT settings FROM realms")[0].settings);
    expect(settings.new_stream_announcements_stream_id).toBeNull();
  });

  test("a private channel without subscribers cannot be unarchived", async () => {
    const id = await createChannel(org, org.member, { invite_only: true });
    ok(await org.member.api.delete(`/streams/${id}`));
    ok(await org.member.api.delete("/users/me/subscriptions", { subscriptions: [(await getChannel(org.admin, id)).name] }));
    expectError(await org.admin.api.patch(`/streams/${id}`, { is_archived: false }), "BAD_REQUEST");
  });

  test("unknown channels are refused", async () => {
    expectError(await org.admin.api.delete("/streams/999999"), "BAD_REQUEST");
    expectError(await org.admin.api.delete("/streams/abc"), "BAD_REQUEST");
  });
});

describe("default channels endpoints", () => {
  test("administrators add and remove default channels", async () => {
    const id = await createChannel(org, org.member);
    ok(await org.admin.api.post("/default_streams", { stream_id: id }));
    expect(await isDefault(id)).toBe(true);
    ok(await org.admin.api.post("/default_streams", { stream_id: id }));
    ok(await org.admin.api.delete("/default_streams", { stream_id: id }));
    expect(await isDefault(id)).toBe(false);
    ok(await org.admin.api.delete("/default_streams", { stream_id: id }));
  });

  test("others may not, and private, archived or unknown channels cannot be default", async () => {
    const id = await createChannel(org, org.admin);
    for (const person of [org.moderator, org.member, org.guest]) {
      expectError(await person.api.post("/default_streams", { stream_id: id }), "UNAUTHORIZED_PRINCIPAL");
    }
    ok(await org.admin.api.post("/default_streams", { stream_id: id }));
    expectError(await org.member.api.delete("/default_streams", { stream_id: id }), "UNAUTHORIZED_PRINCIPAL");
    expect(await isDefault(id)).toBe(true);
    const privateId = await createChannel(org, org.admin, { invite_only: true });
    expectError(await org.admin.api.post("/default_streams", { stream_id: privateId }), "BAD_REQUEST");
    const archivedId = await createChannel(org, org.admin);
    ok(await org.admin.api.delete(`/streams/${archivedId}`));
    expectError(await org.admin.api.post("/default_streams", { stream_id: archivedId }), "BAD_REQUEST");
    expectError(await org.admin.api.post("/default_streams", { stream_id: 999_999 }), "BAD_REQUEST");
    expectError(await org.admin.api.post("/default_streams", {}), "BAD_REQUEST");
  });
});

test("renaming is visible to everyone immediately", async () => {
  const id = await createChannel(org, org.member);
  const name = uniqueName("visible");
  ok(await org.member.api.patch(`/streams/${id}`, { new_name: name }));
  expect(ok(await org.member2.api.get("/get_stream_id", { stream: name })).stream_id).toBe(id);
});
