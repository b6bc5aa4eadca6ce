import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, createUserGroup, queryServer, setRealmSetting, systemGroupId, uniqueName } from "../helpers/channels";
import { editServerDatabase } from "../helpers/inProcess";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, createMembers, directMessage, messageCount, send, sendOk, storedFlags } from "../helpers/sending";

/** Who may send where (spec 4.1, 7), and which mentions they may make. */

let org: Org;
let groups: { everyone: number; members: number; admins: number };
const ch = { pub: 0, priv: 0, adminsOnly: 0, archived: 0, big: 0 };
let extras: Person[];

const Bits = { READ: 1, MENTIONED: 16, STREAM_WILDCARD: 32, TOPIC_WILDCARD: 64, GROUP_MENTIONED: 128 };

beforeAll(async () => {
  org = await seedOrg();
  groups = { everyone: systemGroupId(org.server, "role:everyone"), members: systemGroupId(org.server, "role:members"), admins: systemGroupId(org.server, "role:administrators") };
  ch.pub = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.guest.id] });
  ch.priv = await createChannel(org, org.member, { invite_only: true });
  ch.adminsOnly = await createChannel(org, org.member, { principals: [org.member.id, org.admin.id, org.moderator.id], can_send_message_group: groups.admins });
  ch.archived = await createChannel(org, org.admin);
  ok(await org.admin.api.delete(`/streams/${ch.archived}`));
  extras = await createMembers(org, 15);
  ch.big = await createChannel(org, org.member, { principals: [org.member.id, ...extras.map((person) => person.id)] });
}, 120_000);
afterAll(() => org.server.dispose());

async function expectRefused(response: Promise<{ status: number; body: any }>, code: string, message?: string | RegExp) {
  const before = messageCount(org.server);
  const result = await response;
  expectError(result, code);
  if (message) expect(result.body.msg).toMatch(message);
  expect(messageCount(org.server)).toBe(before);
}

describe("channels", () => {
  test("non-guests post to public channels whether subscribed or not", async () => {
    for (const person of [org.member, org.moderator, org.admin, org.owner, org.bot]) await sendOk(person, channelMessage(ch.pub, "open", `from ${person.email}`));
  });

  test("guests post only where they are subscribed", async () => {
    await sendOk(org.guest, channelMessage(ch.pub, "open", "guest here"));
    // Public channels a guest has not joined are as unknown to them as private ones.
    await expectRefused(send(org.guest, channelMessage(ch.big, "open", "x")), "STREAM_DOES_NOT_EXIST");
  });

  test("private channels: subscribers and bots of subscribers post; others are refused", async () => {
    await sendOk(org.member, channelMessage(ch.priv, "secret", "mine"));
    // The bot's owner (member) is subscribed.
    await sendOk(org.bot, channelMessage(ch.priv, "secret", "on behalf of my owner"));
    // An administrator knows the channel exists but has not joined it.
    await expectRefused(send(org.admin, channelMessage(ch.priv, "secret", "x")), "BAD_REQUEST", "Not authorized");
  });

  test("a private channel one may not know about does not exist, by name or by ID", async () => {
    const name = uniqueName("hidden");
    const hidden = await createChannel(org, org.member, { invite_only: true }, name);
    for (const person of [org.member2, org.guest, org.moderator]) {
      await expectRefused(send(person, channelMessage(hidden, "t", "x")), "STREAM_DOES_NOT_EXIST");
      await expectRefused(send(person, channelMessage(name, "t", "x")), "STREAM_DOES_NOT_EXIST");
    }
  });

  test("can_send_message_group: only its members post (a bot only if its owner may)", async () => {
    await sendOk(org.admin, channelMessage(ch.adminsOnly, "announce", "hear ye"));
    await sendOk(org.owner, channelMessage(ch.adminsOnly, "announce", "owners are administrators too"));
    for (const person of [org.member, org.moderator, org.bot, org.member2]) {
      await expectRefused(send(person, channelMessage(ch.adminsOnly, "announce", "x")), "BAD_REQUEST", "permission to post");
    }
    await expectRefused(send(org.guest, channelMessage(ch.adminsOnly, "announce", "x")), "STREAM_DOES_NOT_EXIST");
  });

  test("archived channels take no messages, even from administrators", async () => {
    for (const person of [org.admin, org.owner, org.member]) await expectRefused(send(person, channelMessage(ch.archived, "t", "x")), "BAD_REQUEST", "archived");
  });
});

describe("direct-message settings", () => {
  test("direct_message_permission_group: a conversation needs one member of the group", async () => {
    setRealmSetting(org.server, "direct_message_permission_group", groups.admins);
    try {
      await expectRefused(send(org.member, directMessage([org.member2.id], "x")), "BAD_REQUEST", "authorize");
      await expectRefused(send(org.guest, directMessage([org.member.id], "x")), "BAD_REQUEST", "authorize");
      await sendOk(org.member, directMessage([org.admin.id], "to an admin"));
      await sendOk(org.member, directMessage([org.member2.id, org.admin.id], "a group with an admin"));
      await sendOk(org.admin, directMessage([org.member2.id], "from an admin"));
      // Only oneself and bots: always allowed.
      await sendOk(org.member, directMessage([org.member.id], "to myself"));
      await sendOk(org.member, directMessage([org.bot.id], "to a bot"));
    } finally {
      setRealmSetting(org.server, "direct_message_permission_group", groups.everyone);
    }
  });

  test("direct_message_initiator_group: outsiders may reply but not start conversations", async () => {
    await sendOk(org.member2, directMessage([org.moderator.id], "started while anyone may start"));
    setRealmSetting(org.server, "direct_message_initiator_group", groups.admins);
    try {
      await sendOk(org.moderator, directMessage([org.member2.id], "replying is fine"));
      await expectRefused(send(org.moderator, directMessage([org.guest.id], "x")), "BAD_REQUEST", "initiate");
      await expectRefused(send(org.moderator, directMessage([org.guest.id, org.member2.id], "x")), "BAD_REQUEST", "initiate");
      await sendOk(org.admin, directMessage([org.guest.id], "administrators may start"));
      await sendOk(org.moderator, directMessage([org.bot.id], "bots are always fine"));
    } finally {
      setRealmSetting(org.server, "direct_message_initiator_group", groups.everyone);
    }
  });
});

describe("wildcard mentions", () => {
  test("a channel wildcard in a channel of more than 15 subscribers needs can_mention_many_users_group", async () => {
    for (const wildcard of ["all", "everyone", "channel", "stream"]) {
      await expectRefused(send(org.member, channelMessage(ch.big, "crowd", `@**${wildcard}** hello`)), "STREAM_WILDCARD_MENTION_NOT_ALLOWED");
    }
    const { id } = await sendOk(org.admin, channelMessage(ch.big, "crowd", "@**all** listen"));
    const flags = storedFlags(org.server, id);
    for (const person of [org.member, ...extras]) expect(flags.get(person.id)! & Bits.STREAM_WILDCARD).toBe(Bits.STREAM_WILDCARD);
    // The admin is not subscribed, so not a recipient.
    expect(flags.has(org.admin.id)).toBe(false);
  });

  test("small channels, silent and quoted wildcards need no permission", async () => {
    await sendOk(org.member, channelMessage(ch.pub, "small", "@**all** hi"));
    const silent = await sendOk(org.member, channelMessage(ch.big, "crowd", "@_**all** quietly"));
    expect(storedFlags(org.server, silent.id).size).toBe(0);
    await sendOk(org.member, channelMessage(ch.big, "crowd", "> @**all** said someone"));
  });

  test("the permission follows the organization's setting", async () => {
    setRealmSetting(org.server, "can_mention_many_users_group", groups.members);
    try {
      await sendOk(org.member, channelMessage(ch.big, "crowd", "@**everyone** now allowed"));
    } finally {
      setRealmSetting(org.server, "can_mention_many_users_group", groups.admins);
    }
    await expectRefused(send(org.member, channelMessage(ch.big, "crowd", "@**everyone** no longer")), "STREAM_WILDCARD_MENTION_NOT_ALLOWED");
  });

  test("a topic wildcard in a topic of more than 15 participants needs the permission; participants are flagged", async () => {
    for (const person of extras) await sendOk(person, channelMessage(ch.big, "busy topic", "present"));
    // 15 participants so far; the sender makes 16.
    await expectRefused(send(org.member, channelMessage(ch.big, "busy topic", "@**topic** hello")), "TOPIC_WILDCARD_MENTION_NOT_ALLOWED");
    // An extra is already a participant, so the topic stays at 15.
    const allowed = await sendOk(extras[0], channelMessage(ch.big, "Busy Topic", "@**topic** hello"));
    const flags = storedFlags(org.server, allowed.id);
    for (const person of extras) expect(flags.get(person.id)! & Bits.TOPIC_WILDCARD).toBe(Bits.TOPIC_WILDCARD);
    expect(flags.get(org.member.id) ?? 0).toBe(0);
    await sendOk(org.admin, channelMessage(ch.big, "busy topic", "@**topic** admin may"));
  });

  test("people who reacted in a topic count as its participants", async () => {
    const { id } = await sendOk(org.member, channelMessage(ch.big, "reacted", "react to this"));
    await sendOk(org.member, channelMessage(ch.big, "reacted", "@**topic** only I have spoken so far"));
    for (const person of extras) ok(await person.api.post(`/messages/${id}/reactions`, { emoji_name: "+1" }));
    await expectRefused(send(org.member, channelMessage(ch.big, "reacted", "@**topic** now many are here")), "TOPIC_WILDCARD_MENTION_NOT_ALLOWED");
  });

  test("a topic wildcard in a quiet topic of a big channel is fine", async () => {
    await sendOk(org.member, channelMessage(ch.big, "quiet", "@**topic** anyone?"));
  });
});

describe("sends arriving together", () => {
  test("share a transaction, yet a refused one takes nothing of the others down with it", async () => {
    const before = messageCount(org.server);
    const sends = Array.from({ length: 24 }, (_, i) =>
      i % 3 === 0 ? send(org.member, channelMessage(ch.big, "together", `@**all** ${i}`)) : send(org.member, channelMessage(ch.big, "together", `fine ${i}`)),
    );
    const answers = await Promise.all(sends);
    const refused = answers.filter((_, i) => i % 3 === 0);
    const accepted = answers.filter((_, i) => i % 3 !== 0);
    for (const answer of refused) expectError(answer, "STREAM_WILDCARD_MENTION_NOT_ALLOWED");
    const ids = accepted.map((answer) => ok(answer).id as number);
    expect(new Set(ids).size).toBe(ids.length);
    expect(messageCount(org.server)).toBe(before + accepted.length);
    // The refused messages' wildcard flags were rolled back with them.
    for (const id of ids) expect(storedFlags(org.server, id).size).toBe(0);
    const flagged = queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM message_flags f JOIN messages m ON m.id = f.message_id WHERE m.topic = 'together'");
    expect(flagged[0].n).toBe(0);
  });
});

describe("user and group mentions", () => {
  test("mentioned recipients are flagged; mentioned non-recipients are not", async () => {
    const { id } = await sendOk(org.member, channelMessage(ch.pub, "mentions", "@**Max Member** and @**Mona Moderator** and @_**Gus Guest**"));
    const flags = storedFlags(org.server, id);
    expect(flags.get(org.member2.id)).toBe(Bits.MENTIONED);
    expect(flags.has(org.moderator.id)).toBe(false);
    expect(flags.has(org.guest.id)).toBe(false);
  });

  test("a group's can_mention_group decides who may mention it; its members are flagged", async () => {
    const group = createUserGroup(org.server, "designers", [org.member2.id, org.moderator.id]);
    editServerDatabase(org.server, "UPDATE user_groups SET can_mention_group = ? WHERE id = ?", groups.admins, group);
    for (const person of [org.member, org.moderator, org.guest]) {
      await expectRefused(send(person, channelMessage(ch.pub, "mentions", "@*designers* look")), "BAD_REQUEST", "not allowed to mention user group 'designers'");
    }
    await sendOk(org.member, channelMessage(ch.pub, "mentions", "@_*designers* silently is fine"));
    const { id } = await sendOk(org.admin, channelMessage(ch.pub, "mentions", "@*designers* look"));
    expect(storedFlags(org.server, id).get(org.member2.id)).toBe(Bits.MENTIONED | Bits.GROUP_MENTIONED);

    editServerDatabase(org.server, "UPDATE user_groups SET can_mention_group = ? WHERE id = ?", groups.everyone, group);
    await sendOk(org.guest, channelMessage(ch.pub, "mentions", "@*designers* anyone may now"));
  });

  test("system groups are not mentionable", async () => {
    const { id } = await sendOk(org.member, channelMessage(ch.pub, "mentions", "@*role:members* hello"));
    expect(storedFlags(org.server, id).size).toBe(0);
  });
});
