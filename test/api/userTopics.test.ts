import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { channelId, queryServer, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS, pending } from "../events/support";

/** POST /user_topics and the deprecated PATCH /users/me/subscriptions/muted_topics: one's own topic visibility. */

let org: Org;
let publicName = "";
let publicId = 0;
let privateId = 0;
beforeAll(async () => {
  org = await seedOrg();
  publicName = uniqueName("open");
  ok(await org.member.api.post("/users/me/subscriptions", { subscriptions: [{ name: publicName }] }));
  publicId = channelId(org.server, publicName);
  const privateName = uniqueName("closed");
  ok(await org.member2.api.post("/users/me/subscriptions", { subscriptions: [{ name: privateName }], invite_only: true }));
  privateId = channelId(org.server, privateName);
  await sendOk(org.member, channelMessage(publicName, "lunch", "soup?"));
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const stored = (person: Person) =>
  queryServer<{ channel_id: number; topic: string; visibility_policy: number }>(org.server, "SELECT channel_id, topic, visibility_policy FROM user_topics WHERE user_id = ? ORDER BY topic", person.id);

async function userTopics(person: Person) {
  return ok(await person.api.post("/register", { fetch_event_types: ["user_topic"] })).user_topics;
}

describe("POST /user_topics", () => {
  test("mutes, follows, unmutes and clears; register's user_topics follows", async () => {
    const { member } = org;
    for (const [policy, expected] of [
      [1, 1],
      [3, 3],
      [2, 2],
    ]) {
      expect(ok(await member.api.post("/user_topics", { stream_id: publicId, topic: "lunch", visibility_policy: policy }))).toEqual({ result: "success", msg: "" });
      expect((await userTopics(member)).find((each: any) => each.topic_name === "lunch")).toEqual({ stream_id: publicId, topic_name: "lunch", last_updated: expect.any(Number), visibility_policy: expected });
    }
    ok(await member.api.post("/user_topics", { stream_id: publicId, topic: "lunch", visibility_policy: 0 }));
    expect(stored(member).filter((row) => row.topic === "lunch")).toEqual([]);
  });

  test("a topic without messages, and the empty topic by its display names", async () => {
    const { member2 } = org;
    ok(await member2.api.post("/user_topics", { stream_id: publicId, topic: "never used", visibility_policy: 1 }));
    ok(await member2.api.post("/user_topics", { stream_id: publicId, topic: "(no topic)", visibility_policy: 3 }));
    expect(stored(member2)).toEqual([
      { channel_id: publicId, topic: "", visibility_policy: 3 },
      { channel_id: publicId, topic: "never used", visibility_policy: 1 },
    ]);
  });

  test("only the user's own clients hear of it; setting the same policy again says nothing", async () => {
    const { moderator, member2 } = org;
    const mine = ok(await moderator.api.post("/register", { event_types: ["user_topic", "muted_topics"] })).queue_id;
    const theirs = ok(await member2.api.post("/register", { event_types: ["user_topic", "muted_topics"] })).queue_id;
    ok(await moderator.api.post("/user_topics", { stream_id: publicId, topic: "lunch", visibility_policy: 1 }));
    ok(await moderator.api.post("/user_topics", { stream_id: publicId, topic: "lunch", visibility_policy: 1 }));
    const events = await pending(moderator, mine);
    // Named user_topic in event_types: no legacy muted_topics list.
    expect(events.map((event) => event.type)).toEqual(["user_topic"]);
    expect(events[0]).toMatchObject({ stream_id: publicId, topic_name: "lunch", visibility_policy: 1 });
    expect(await pending(member2, theirs)).toEqual([]);
  });

  test("clients that asked only for muted_topics get the whole legacy list", async () => {
    const { admin } = org;
    const queue = ok(await admin.api.post("/register", { event_types: ["muted_topics"] })).queue_id;
    ok(await admin.api.post("/user_topics", { stream_id: publicId, topic: "one", visibility_policy: 1 }));
    ok(await admin.api.post("/user_topics", { stream_id: publicId, topic: "two", visibility_policy: 3 }));
    ok(await admin.api.post("/user_topics", { stream_id: publicId, topic: "one", visibility_policy: 0 }));
    const lists = (await pending(admin, queue)).map((event) => event.muted_topics.map(([name, topic]: [string, string]) => `${name}/${topic}`));
    expect(lists).toEqual([[`${publicName}/one`], []]);
  });

  test("a private channel one is not in, an unknown channel: Invalid channel ID; nothing stored", async () => {
    for (const stream_id of [privateId, 999_999]) {
      expectError(await org.member.api.post("/user_topics", { stream_id, topic: "x", visibility_policy: 1 }), "BAD_REQUEST");
    }
    expect(stored(org.member).filter((row) => row.channel_id === privateId)).toEqual([]);
    // The guest is not in the public channel, and guests see only their channels.
    expectError(await org.guest.api.post("/user_topics", { stream_id: publicId, topic: "x", visibility_policy: 1 }), "BAD_REQUEST");
    expect(stored(org.guest)).toEqual([]);
  });

  test("bad input: unknown policy, missing or non-numeric fields, an overlong topic", async () => {
    const { member } = org;
    const before = stored(member);
    for (const body of [
      { stream_id: publicId, topic: "x", visibility_policy: 7 },
      { stream_id: publicId, topic: "x", visibility_policy: -1 },
      { stream_id: publicId, topic: "x", visibility_policy: "muted" },
      { stream_id: "one", topic: "x", visibility_policy: 1 },
      { stream_id: publicId, visibility_policy: 1 },
      { topic: "x", visibility_policy: 1 },
      { stream_id: publicId, topic: "x" },
      { stream_id: publicId, topic: "x".repeat(61), visibility_policy: 1 },
      { stream_id: publicId, topic: "x".repeat(100_000), visibility_policy: 1 },
    ]) {
      expectError(await member.api.post("/user_topics", body), "BAD_REQUEST");
    }
    expect(stored(member)).toEqual(before);
  });
});

describe("PATCH /users/me/subscriptions/muted_topics (deprecated)", () => {
  test("mutes by channel name or ID and unmutes; muting twice is no error", async () => {
    const { member } = org;
    ok(await member.api.patch("/users/me/subscriptions/muted_topics", { stream: publicName, topic: "legacy", op: "add" }));
    ok(await member.api.patch("/users/me/subscriptions/muted_topics", { stream_id: publicId, topic: "legacy", op: "add" }));
    expect(stored(member).filter((row) => row.topic === "legacy")).toEqual([{ channel_id: publicId, topic: "legacy", visibility_policy: 1 }]);
    const { muted_topics } = ok(await member.api.post("/register", { fetch_event_types: ["muted_topics"] }));
    expect(muted_topics).toContainEqual([publicName, "legacy", expect.any(Number)]);
    ok(await member.api.patch("/users/me/subscriptions/muted_topics", { stream_id: publicId, topic: "legacy", op: "remove" }));
    expect(stored(member).filter((row) => row.topic === "legacy")).toEqual([]);
  });

  test("exactly one of stream and stream_id; unknown channels and bad ops refused", async () => {
    const { member } = org;
    const before = stored(member);
    const refusals = [
      { topic: "x", op: "add" },
      { stream: publicName, stream_id: publicId, topic: "x", op: "add" },
      { stream: "no such channel", topic: "x", op: "add" },
      { stream_id: privateId, topic: "x", op: "add" },
      { stream_id: publicId, topic: "x", op: "toggle" },
      { stream_id: publicId, op: "add" },
    ];
    for (const body of refusals) expectError(await member.api.patch("/users/me/subscriptions/muted_topics", body), "BAD_REQUEST");
    expect(stored(member)).toEqual(before);
  });
});
