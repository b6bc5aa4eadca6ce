import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { channelId, uniqueName } from "../helpers/channels";
import { createPerson, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS } from "../events/support";
import { FLUTTER_REGISTER_PARAMS, flutterSnapshotProblems } from "./flutterContract";

/**
 * The mobile app's register answer with something in every part it parses. The app's
 * InitialSnapshot.fromJson (zulip-flutter lib/api/model/initial_snapshot.dart and its .g.dart)
 * throws on a missing non-nullable field or a wrong type anywhere inside, nested classes
 * included (lib/api/model/model.dart: User, Subscription, ZulipStream, UserGroup, ...); a
 * throw there means the app cannot load the account. flutterContract.ts checks every field it
 * reads; this test first fills the organization so that every list and map the app reads an
 * element type from has elements, because an empty list proves nothing about its items.
 */

/**
 * Where in the snapshot the app reads items of a nested class, with that class (the paths
 * InitialSnapshot.fromJson follows). Each must hold at least one item here.
 */
const NESTED: Array<[path: string, appClass: string]> = [
  ["subscriptions", "Subscription"],
  ["streams", "ZulipStream"],
  ["realm_users", "User"],
  ["realm_non_active_users", "User"],
  ["cross_realm_bots", "User"],
  ["realm_user_groups", "UserGroup"],
  ["recent_private_conversations", "RecentDmConversation"],
  ["unread_msgs.streams", "UnreadChannelSnapshot"],
  ["unread_msgs.pms", "UnreadDmSnapshot"],
  ["unread_msgs.huddles", "UnreadHuddleSnapshot"],
  ["unread_msgs.mentions", "int"],
  ["starred_messages", "int"],
  ["user_topics", "UserTopicItem"],
  ["muted_users", "MutedUserItem"],
  ["presences", "PerUserPresence"],
  ["user_status", "UserStatusChange"],
  ["saved_snippets", "SavedSnippet"],
  ["realm_emoji", "RealmEmojiItem"],
  ["alert_words", "String"],
];

/** A 1×1 PNG, for a custom emoji. */
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

async function uploadEmoji(person: Person, name: string) {
  const form = new FormData();
  form.append("file", new Blob([PNG], { type: "image/png" }), "emoji.png");
  const headers = { authorization: `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}` };
  const response = await fetch(new URL(`/api/v1/realm/emoji/${name}`, org.server.url), { method: "POST", headers, body: form });
  expect(response.status).toBe(200);
}

let org: Org;
beforeAll(async () => {
  org = await seedOrg({ rateLimits: true });
  const { owner, member, member2, moderator } = org;
  const name = uniqueName("mobile");
  ok(await member.api.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [member.id, member2.id] }));
  const channel = channelId(org.server, name);
  // Unread for member: a channel message mentioning them, a DM, a group DM.
  await sendOk(member2, channelMessage(name, "plans", "lunch, @**Mel Member**?"));
  const dm = await sendOk(member2, directMessage([member.id], "psst"));
  await sendOk(member2, directMessage([member.id, moderator.id], "all three of us"));
  ok(await member.api.post("/messages/flags", { messages: [dm.id], op: "add", flag: "starred" }));
  ok(await member.api.post("/user_topics", { stream_id: channel, topic: "plans", visibility_policy: 3 }));
  ok(await member.api.post(`/users/me/muted_users/${moderator.id}`));
  ok(await member2.api.post("/users/me/presence", { status: "active", new_user_input: true }));
  ok(await member2.api.post("/users/me/status", { status_text: "on a train", emoji_name: "train", emoji_code: "1f686", reaction_type: "unicode_emoji" }));
  ok(await member.api.post("/saved_snippets", { title: "Greeting", content: "Hello there" }));
  ok(await member.api.post("/users/me/alert_words", { alert_words: ["lunch"] }));
  ok(await member.api.post("/user_groups/create", { name: uniqueName("crew"), description: "The crew", members: [member.id, member2.id] }));
  await uploadEmoji(member, "party_parrot");
  const leaver = await createPerson(owner, org.anon, "Lee Leaver");
  ok(await owner.api.delete(`/users/${leaver.id}`));
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const at = (snapshot: Record<string, any>, path: string) => path.split(".").reduce((value, key) => value?.[key], snapshot);
const size = (value: unknown) => (Array.isArray(value) ? value.length : typeof value === "object" && value !== null ? Object.keys(value).length : 0);

describe("zulip-flutter's InitialSnapshot, with the app's register parameters", () => {
  test("every nested list and map the app reads holds items here, so their types are checked too", async () => {
    const snapshot = ok(await org.member.api.post("/register", FLUTTER_REGISTER_PARAMS));
    const empty = NESTED.filter(([path]) => size(at(snapshot, path)) === 0).map(([path, appClass]) => `${path} (${appClass})`);
    expect(empty).toEqual([]);
    expect(flutterSnapshotProblems(snapshot)).toEqual([]);
  });

  test("it parses for every role, bots included", async () => {
    for (const person of [org.owner, org.admin, org.moderator, org.member2, org.guest, org.bot]) {
      const snapshot = ok(await person.api.post("/register", FLUTTER_REGISTER_PARAMS));
      expect({ who: person.email, problems: flutterSnapshotProblems(snapshot) }).toEqual({ who: person.email, problems: [] });
    }
  });

  test("the values the app decodes strictly: presences keyed by user ID (slim_presence), the wildcard-mention enum, the emoji data URL", async () => {
    const snapshot = ok(await org.member.api.post("/register", FLUTTER_REGISTER_PARAMS));
    // Map<int, PerUserPresence>: int.parse on each key.
    expect(Object.keys(snapshot.presences).every((key) => /^\d+$/.test(key))).toBe(true);
    expect(snapshot.presences[org.member2.id]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    // $enumDecode without a fallback: anything outside RealmWildcardMentionPolicy throws.
    expect([1, 2, 3, 5, 6, 7]).toContain(snapshot.realm_wildcard_mention_policy);
    // Uri.parse, then fetched by the app.
    expect(() => new URL(snapshot.server_emoji_data_url)).not.toThrow();
    // The app reads the user list as given, with is_active filled in where absent.
    expect(snapshot.realm_non_active_users.map((user: { full_name: string }) => user.full_name)).toContain("Lee Leaver");
  });
});
