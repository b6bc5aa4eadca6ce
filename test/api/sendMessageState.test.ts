import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, getChannel, queryServer, setRealmSetting, subscribe, uniqueName } from "../helpers/channels";
import { type Org, type Person, ok, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk, storedFlags, storedMessage } from "../helpers/sending";

/**
 * What a send changes besides the message: the sender's read flag, topic visibility policies,
 * the channel's first_message_id, and the notification bot's channel announcements.
 */

let org: Org;
let channel: { id: number; name: string };

beforeAll(async () => {
  org = await seedOrg();
  const name = uniqueName("state");
  channel = { id: await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.bot.id] }, name), name };
}, 60_000);
afterAll(() => org.server.dispose());

const READ = 1;

describe("read_by_sender", () => {
  const sendWithAgent = (person: Person, params: Record<string, unknown>, userAgent: string) =>
    person.api.request("POST", "/messages", params, { headers: { "user-agent": userAgent } }).then(ok);
  const senderFlags = (id: number) => storedFlags(org.server, id).get(org.member.id) ?? 0;

  test("an explicit value wins", async () => {
    const read = await sendOk(org.member, channelMessage(channel.name, "read", "x", { read_by_sender: true }));
    expect(senderFlags(read.id)).toBe(READ);
    const unread = await sendOk(org.member, channelMessage(channel.name, "read", "x", { read_by_sender: false, client: "website" }));
    expect(senderFlags(unread.id)).toBe(0);
  });

  test("by default, messages from clients people type into are read; from integrations, unread", async () => {
    const web = await sendOk(org.member, channelMessage(channel.name, "read", "x", { client: "website" }));
    expect(senderFlags(web.id)).toBe(READ);
    expect(storedMessage(org.server, web.id)!.client).toBe("website");

    const mobile = await sendWithAgent(org.member, channelMessage(channel.name, "read", "x"), "ZulipMobile/27.1 (Android 14)");
    expect(senderFlags(mobile.id)).toBe(READ);
    expect(storedMessage(org.server, mobile.id)!.client).toBe("ZulipMobile");

    const script = await sendWithAgent(org.member, channelMessage(channel.name, "read", "x"), "ZulipPython/0.9.0 (Linux)");
    expect(senderFlags(script.id)).toBe(0);
    expect(storedMessage(org.server, script.id)!.client).toBe("ZulipPython");
  });

  test("recipients start unread, with no rows written for them", async () => {
    const { id } = await sendOk(org.member, channelMessage(channel.name, "read", "plain", { read_by_sender: true }));
    expect([...storedFlags(org.server, id).keys()]).toEqual([org.member.id]);
  });
});

describe("automatic topic visibility", () => {
  const setSettings = async (person: Person, settings: Record<string, unknown>) => ok(await person.api.patch("/settings", settings));
  const policyOf = (userId: number, channelId: number, topic: string) =>
    queryServer<{ visibility_policy: number }>(org.server, "SELECT visibility_policy FROM user_topics WHERE user_id = ? AND channel_id = ? AND topic_key = ?", userId, channelId, topic.toLowerCase())[0]
      ?.visibility_policy;

  test("by default the sender follows topics they start, and only those", async () => {
    const topic = uniqueName("started");
    expect((await sendOk(org.member2, channelMessage(channel.name, topic, "first"))).automatic_new_visibility_policy).toBe(3);
    expect(policyOf(org.member2.id, channel.id, topic)).toBe(3);
    const joined = await sendOk(org.member, channelMessage(channel.name, topic, "reply"));
    expect(joined.automatic_new_visibility_policy).toBeUndefined();
    expect(policyOf(org.member.id, channel.id, topic)).toBeUndefined();
  });

  test("a topic emptied by deleting it starts anew: its next sender follows it", async () => {
    const topic = uniqueName("emptied");
    expect((await sendOk(org.member, channelMessage(channel.name, topic, "first"))).automatic_new_visibility_policy).toBe(3);
    expect((await sendOk(org.member2, channelMessage(channel.name, topic, "second"))).automatic_new_visibility_policy).toBeUndefined();
    ok(await org.admin.api.post(`/streams/${channel.id}/delete_topic`, { topic_name: topic }));
    expect((await sendOk(org.member2, channelMessage(channel.name, topic, "first again"))).automatic_new_visibility_policy).toBe(3);
  });

  test("follow on send: any topic the sender writes in", async () => {
    await setSettings(org.member, { automatically_follow_topics_policy: 2 });
    try {
      const topic = uniqueName("joined");
      await sendOk(org.member2, channelMessage(channel.name, topic, "someone else started it"));
      expect((await sendOk(org.member, channelMessage(channel.name, topic, "me too"))).automatic_new_visibility_policy).toBe(3);
      expect((await sendOk(org.member, channelMessage(channel.name, topic, "again"))).automatic_new_visibility_policy).toBeUndefined();
    } finally {
      await setSettings(org.member, { automatically_follow_topics_policy: 3 });
    }
  });

  test("unmute in muted channels: only when the channel is muted; never overrides following", async () => {
    await setSettings(org.member, { automatically_follow_topics_policy: 4, automatically_unmute_topics_in_muted_streams_policy: 2 });
    const mute = (value: boolean) => org.member.api.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: channel.id, property: "is_muted", value }] }).then(ok);
    try {
      const topic = uniqueName("muted");
      expect((await sendOk(org.member, channelMessage(channel.name, topic, "not muted yet"))).automatic_new_visibility_policy).toBeUndefined();
      await mute(true);
      expect((await sendOk(org.member, channelMessage(channel.name, topic, "muted now"))).automatic_new_visibility_policy).toBe(2);
      expect(policyOf(org.member.id, channel.id, topic)).toBe(2);
      expect((await sendOk(org.member, channelMessage(channel.name, topic, "still unmuted"))).automatic_new_visibility_policy).toBeUndefined();
    } finally {
      await mute(false);
      await setSettings(org.member, { automatically_follow_topics_policy: 3, automatically_unmute_topics_in_muted_streams_policy: 2 });
    }
  });

  test("never: nothing changes, even in a new topic", async () => {
    await setSettings(org.member, { automatically_follow_topics_policy: 4 });
    try {
      const topic = uniqueName("never");
      expect((await sendOk(org.member, channelMessage(channel.name, topic, "x"))).automatic_new_visibility_policy).toBeUndefined();
      expect(policyOf(org.member.id, channel.id, topic)).toBeUndefined();
    } finally {
      await setSettings(org.member, { automatically_follow_topics_policy: 3 });
    }
  });

  test("direct messages and bots never change a visibility policy", async () => {
    expect((await sendOk(org.member, directMessage([org.member2.id], "x"))).automatic_new_visibility_policy).toBeUndefined();
    const topic = uniqueName("bot topic");
    expect((await sendOk(org.bot, channelMessage(channel.name, topic, "beep"))).automatic_new_visibility_policy).toBeUndefined();
    expect(policyOf(org.bot.id, channel.id, topic)).toBeUndefined();
  });

  test("mentioned recipients follow the topic when their setting says so", async () => {
    const topic = uniqueName("mention");
    await sendOk(org.member, channelMessage(channel.name, topic, "@**Max Member** look"));
    expect(policyOf(org.member2.id, channel.id, topic)).toBe(3);
    await setSettings(org.member2, { automatically_follow_topics_where_mentioned: false });
    try {
      const other = uniqueName("mention");
      await sendOk(org.member, channelMessage(channel.name, other, "@**Max Member** look"));
      expect(policyOf(org.member2.id, channel.id, other)).toBeUndefined();
    } finally {
      await setSettings(org.member2, { automatically_follow_topics_where_mentioned: true });
    }
  });
});

describe("channel announcements and first_message_id", () => {
  const botMessages = (channelId: number) =>
    queryServer<{ id: number; topic: string; content: string; sender_id: number }>(
      org.server,
      "SELECT m.id, m.topic, m.content, m.sender_id FROM messages m JOIN users u ON u.id = m.sender_id WHERE m.channel_id = ? AND u.is_system_bot ORDER BY m.id",
      channelId,
    );

  test("a new channel opens with the notification bot's notice, which is its first message", async () => {
    const name = uniqueName("fresh");
    await subscribe(org.member, [name]);
    const id = queryServer<{ id: number }>(org.server, "SELECT id FROM channels WHERE name = ?", name)[0].id;
    const [notice] = botMessages(id);
    expect(notice.topic).toBe("channel events");
    expect(notice.content).toBe(`**Public** channel created by @_**Mel Member|${org.member.id}**. **Description:**\n\`\`\`\` quote\n*No description.*\n\`\`\`\``);
    expect((await getChannel(org.member, id)).first_message_id).toBe(notice.id);
    const later = await sendOk(org.member, channelMessage(id, "later", "x"));
    expect((await getChannel(org.member, id)).first_message_id).toBe(notice.id);
    expect(later.id).toBeGreaterThan(notice.id);
  });

  test("a private channel's notice names its privacy", async () => {
    const id = await createChannel(org, org.member, { invite_only: true });
    expect(botMessages(id)[0].content).toStartWith("**Private, protected history** channel created by");
  });

  test("with announce, new public channels are announced in the announcements channel", async () => {
    setRealmSetting(org.server, "new_stream_announcements_stream_id", channel.id);
    try {
      const [one, two, three, secret] = [uniqueName("a"), uniqueName("b"), uniqueName("c"), uniqueName("s")];
      const before = botMessages(channel.id).length;
      await subscribe(org.member, [one], { announce: true });
      await subscribe(org.member, [two, three], { announce: true });
      await subscribe(org.member, [secret], { announce: true, invite_only: true });
      await subscribe(org.member, [uniqueName("quiet")], { announce: false });
      const announcements = botMessages(channel.id).slice(before);
      expect(announcements.map((message) => [message.topic, message.content])).toEqual([
        ["new channels", `@_**Mel Member|${org.member.id}** created a new channel #**${one}**.`],
        ["new channels", `@_**Mel Member|${org.member.id}** created the following channels: #**${two}**, #**${three}**.`],
      ]);
      expect(storedMessage(org.server, announcements[0].id)!.rendered_content).toContain(`href="/#narrow/channel/`);
    } finally {
      setRealmSetting(org.server, "new_stream_announcements_stream_id", null);
    }
  });

  test("without an announcements channel, announce posts only the notices", async () => {
    const before = queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM messages")[0].n;
    await subscribe(org.member, [uniqueName("unannounced")], { announce: true });
    expect(queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM messages")[0].n).toBe(before + 1);
  });
});
