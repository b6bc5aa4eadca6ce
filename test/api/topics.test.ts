import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, setRealmSetting, subscribe, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS } from "../events/support";

/**
 * GET /users/me/{stream_id}/topics (reference: get-stream-topics): the topics a user may see
 * in a channel, newest first, under the channel's history rules.
 */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const topicsOf = (person: Person, channelId: number | string, params: Record<string, unknown> = {}) => person.api.get(`/users/me/${channelId}/topics`, params);
const NEW_CHANNEL_NOTICE = { name: "channel events", max_id: expect.any(Number) };
const send = async (person: Person, channel: string, topic: string, content = "hello") => (await sendOk(person, channelMessage(channel, topic, content))).id;

describe("a public channel", () => {
  let name: string;
  let channelId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    name = uniqueName("topics");
    channelId = await createChannel(org, org.member, {}, name);
    ids.firstAlpha = await send(org.member, name, "Alpha");
    ids.beta = await send(org.member, name, "beta");
    ids.empty = await send(org.member, name, "");
    ids.gamma = await send(org.member, name, "gamma");
    // The same topic in other case: one entry, named as its newest message spells it.
    ids.lastAlpha = await send(org.member, name, "ALPHA");
  });

  test("every topic once, newest first, with the ID of its latest message; the empty topic by its display name", async () => {
    const body = ok(await topicsOf(org.member, channelId));
    expect(body).toEqual({
      result: "success",
      msg: "",
      topics: [
        { name: "ALPHA", max_id: ids.lastAlpha },
        { name: "gamma", max_id: ids.gamma },
        { name: "general chat", max_id: ids.empty },
        { name: "beta", max_id: ids.beta },
        // The notification bot's announcement of the new channel, sent first.
        NEW_CHANNEL_NOTICE,
      ],
    });
  });

  test("allow_empty_topic_name=true shows the empty topic as the empty string", async () => {
    const body = ok(await topicsOf(org.member, channelId, { allow_empty_topic_name: true }));
    expect(body.topics).toContainEqual({ name: "", max_id: ids.empty });
    expect(body.topics.map((topic: { name: string }) => topic.name)).not.toContain("general chat");
    expect(ok(await topicsOf(org.member, channelId, { allow_empty_topic_name: false })).topics).toContainEqual({ name: "general chat", max_id: ids.empty });
  });

  test("the empty topic's display name follows the organization's setting", async () => {
    setRealmSetting(org.server, "empty_topic_display_name", "lobby");
    try {
      expect(ok(await topicsOf(org.member, channelId)).topics).toContainEqual({ name: "lobby", max_id: ids.empty });
    } finally {
      setRealmSetting(org.server, "empty_topic_display_name", "general chat");
    }
  });

  test("members who are not subscribed see the whole history, as do administrators and bots", async () => {
    const expected = ok(await topicsOf(org.member, channelId)).topics;
    for (const person of [org.member2, org.moderator, org.admin, org.owner, org.bot]) {
      expect(ok(await topicsOf(person, channelId)).topics).toEqual(expected);
    }
  });

  test("a guest who is not subscribed is refused as for an unknown channel; once subscribed, they see it all", async () => {
    const refused = await topicsOf(org.guest, channelId);
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toBe("Invalid channel ID");
    await subscribe(org.member, [name], { principals: [org.guest.id] });
    expect(ok(await topicsOf(org.guest, channelId)).topics).toEqual(ok(await topicsOf(org.member, channelId)).topics);
  });

  test("a deleted message no longer counts: its topic shows its latest remaining message, or goes", async () => {
    const extra = uniqueName("shrinking");
    const extraId = await createChannel(org, org.member, {}, extra);
    const first = await send(org.member, extra, "one");
    const second = await send(org.member, extra, "one");
    const lone = await send(org.member, extra, "two");
    ok(await org.admin.api.delete(`/messages/${second}`));
    ok(await org.admin.api.delete(`/messages/${lone}`));
    expect(ok(await topicsOf(org.member, extraId)).topics).toEqual([{ name: "one", max_id: first }, NEW_CHANNEL_NOTICE]);
  });

  test("moving a topic moves its entry", async () => {
    const extra = uniqueName("moving");
    const extraId = await createChannel(org, org.member, {}, extra);
    const id = await send(org.member, extra, "before");
    ok(await org.member.api.patch(`/messages/${id}`, { topic: "after", propagate_mode: "change_all", send_notification_to_new_thread: false }));
    expect(ok(await topicsOf(org.member, extraId)).topics).toEqual([{ name: "after", max_id: id }, NEW_CHANNEL_NOTICE]);
  });

  test("a channel whose messages were all deleted has no topics", async () => {
    const emptyId = await createChannel(org, org.member);
    const [notice] = ok(await topicsOf(org.member, emptyId)).topics;
    ok(await org.admin.api.delete(`/messages/${notice.max_id}`));
    expect(ok(await topicsOf(org.member, emptyId)).topics).toEqual([]);
  });
});

describe("a private channel", () => {
  test("with protected history, a later subscriber sees only the topics of messages sent since", async () => {
    const name = uniqueName("secret");
    const channelId = await createChannel(org, org.member, { invite_only: true, history_public_to_subscribers: false }, name);
    const before = await send(org.member, name, "old news");
    const both = await send(org.member, name, "shared");
    await subscribe(org.member, [name], { principals: [org.member2.id, org.bot.id] });
    const after = await send(org.member, name, "new news");
    const again = await send(org.member, name, "shared");

    expect(ok(await topicsOf(org.member, channelId)).topics).toEqual([
      { name: "shared", max_id: again },
      { name: "new news", max_id: after },
      { name: "old news", max_id: before },
      NEW_CHANNEL_NOTICE,
    ]);
    expect(both).toBeLessThan(again);
    // The same for a bot: its own subscription counts, not its owner's.
    for (const person of [org.member2, org.bot]) {
      expect(ok(await topicsOf(person, channelId)).topics).toEqual([
        { name: "shared", max_id: again },
        { name: "new news", max_id: after },
      ]);
    }
  });

  test("with shared history, a later subscriber sees every topic", async () => {
    const name = uniqueName("shared");
    const channelId = await createChannel(org, org.member, { invite_only: true, history_public_to_subscribers: true }, name);
    const earlier = await send(org.member, name, "earlier");
    await subscribe(org.member, [name], { principals: [org.member2.id] });
    const later = await send(org.member, name, "later");
    expect(ok(await topicsOf(org.member2, channelId)).topics).toEqual([
      { name: "later", max_id: later },
      { name: "earlier", max_id: earlier },
      NEW_CHANNEL_NOTICE,
    ]);
  });

  test("people who are not subscribed are refused as for an unknown channel, administrators included", async () => {
    const name = uniqueName("closed");
    const channelId = await createChannel(org, org.member, { invite_only: true }, name);
    await send(org.member, name, "private matters");
    for (const person of [org.member2, org.moderator, org.admin, org.owner, org.guest, org.bot]) {
      const refused = await topicsOf(person, channelId);
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe("Invalid channel ID");
      expect(refused.body.topics).toBeUndefined();
    }
  });
});

describe("bad requests", () => {
  test("an unknown channel is refused like a hidden one", async () => {
    for (const id of [999_999, 0]) {
      const refused = await topicsOf(org.member, id);
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe("Invalid channel ID");
    }
  });

  test.each([["abc"], ["-1"], ["1.5"], ["1e400"]])("a malformed channel ID %p is a 400 error", async (id) => {
    const refused = await topicsOf(org.member, id);
    expectError(refused, "BAD_REQUEST");
  });

  test("a malformed allow_empty_topic_name is a 400 error naming it", async () => {
    const channelId = await createChannel(org, org.member);
    const refused = await topicsOf(org.member, channelId, { allow_empty_topic_name: "sometimes" });
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toContain("allow_empty_topic_name");
  });

  test("without credentials the request is refused", async () => {
    const channelId = await createChannel(org, org.member);
    const refused = await org.anon.get(`/users/me/${channelId}/topics`);
    expect(refused.status).toBe(401);
    expect(refused.body.result).toBe("error");
  });
});
