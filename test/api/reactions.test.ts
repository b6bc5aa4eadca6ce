import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";
import { pendingOf, register } from "../events/support";

/** POST and DELETE /messages/{id}/reactions (spec 2.4, 4.13), with their reaction events. */

let org: Org;
let channelName: string;
let privateName: string;

beforeAll(async () => {
  org = await seedOrg();
  channelName = uniqueName("reactions");
  await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, channelName);
  privateName = uniqueName("secret");
  await createChannel(org, org.member2, { invite_only: true }, privateName);
}, 60_000);
afterAll(() => org.server.dispose());

interface StoredReaction {
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}
const storedReactions = (messageId: number) =>
  queryServer<StoredReaction>(org.server, "SELECT user_id, emoji_name, emoji_code, reaction_type FROM reactions WHERE message_id = ? ORDER BY id", messageId);

const newMessage = async (sender: Person = org.member, to = channelName) => (await sendOk(sender, channelMessage(to, "reacting", "react to me"))).id;
const react = (person: Person, id: number | string, params: Record<string, unknown>) => person.api.post(`/messages/${id}/reactions`, params);
const unreact = (person: Person, id: number | string, params: Record<string, unknown>) => person.api.delete(`/messages/${id}/reactions`, params);

/** Expects the refusal and that the message's reactions did not change. */
async function expectRefused(messageId: number, response: Promise<{ status: number; body: any }>, code: string, msg?: string) {
  const before = storedReactions(messageId);
  const result = await response;
  expectError(result, code);
  if (msg) expect(result.body.msg).toBe(msg);
  expect(storedReactions(messageId)).toEqual(before);
}

describe("adding a reaction", () => {
  test("by name alone: the Unicode emoji's code and type are filled in", async () => {
    const id = await newMessage();
    const body = ok(await react(org.member2, id, { emoji_name: "octopus" }));
    expect(body).toEqual({ result: "success", msg: "" });
    expect(storedReactions(id)).toEqual([{ user_id: org.member2.id, emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" }]);
  });

  test("by name, code and type; the built-in extra emoji by name gets svc_extra_emoji", async () => {
    const id = await newMessage();
    ok(await react(org.member, id, { emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" }));
    ok(await react(org.member, id, { emoji_name: "zulip" }));
    ok(await react(org.member2, id, { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "svc_extra_emoji" }));
    expect(storedReactions(id)).toEqual([
      { user_id: org.member.id, emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" },
      { user_id: org.member.id, emoji_name: "zulip", emoji_code: "zulip", reaction_type: "svc_extra_emoji" },
      { user_id: org.member2.id, emoji_name: "zulip", emoji_code: "zulip", reaction_type: "svc_extra_emoji" },
    ]);
  });

  test("message objects carry their reactions (spec 2.3)", async () => {
    const id = await newMessage();
    ok(await react(org.member2, id, { emoji_name: "octopus" }));
    ok(await react(org.member, id, { emoji_name: "zulip" }));
    const { message } = ok(await org.member.api.get(`/messages/${id}`));
    expect(message.reactions).toEqual([
      { emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji", user_id: org.member2.id },
      { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "svc_extra_emoji", user_id: org.member.id },
    ]);
  });

  test("a second reaction with an emoji already there is a vote: it keeps the first one's name", async () => {
    const id = await newMessage();
    ok(await react(org.member, id, { emoji_name: "+1" }));
    ok(await react(org.member2, id, { emoji_name: "thumbs_up" }));
    expect(storedReactions(id).map((reaction) => [reaction.user_id, reaction.emoji_name, reaction.emoji_code])).toEqual([
      [org.member.id, "+1", "1f44d"],
      [org.member2.id, "+1", "1f44d"],
    ]);
  });

  test("the same emoji twice, even under another name, is REACTION_ALREADY_EXISTS", async () => {
    const id = await newMessage();
    ok(await react(org.member, id, { emoji_name: "+1" }));
    await expectRefused(id, react(org.member, id, { emoji_name: "+1" }), "REACTION_ALREADY_EXISTS", "Reaction already exists.");
    await expectRefused(id, react(org.member, id, { emoji_name: "thumbs_up" }), "REACTION_ALREADY_EXISTS");
    await expectRefused(id, react(org.member, id, { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" }), "REACTION_ALREADY_EXISTS");
  });

  test("invalid emoji: unknown name, wrong code, name not matching the code, unknown type, custom emoji", async () => {
    const id = await newMessage();
    await expectRefused(id, react(org.member, id, { emoji_name: "no_such_emoji_here" }), "BAD_REQUEST", "Emoji 'no_such_emoji_here' does not exist");
    await expectRefused(id, react(org.member, id, { emoji_name: "octopus", emoji_code: "zzzz", reaction_type: "unicode_emoji" }), "BAD_REQUEST", "Invalid emoji code.");
    await expectRefused(id, react(org.member, id, { emoji_name: "octopus", emoji_code: "1f389", reaction_type: "unicode_emoji" }), "BAD_REQUEST", "Invalid emoji name.");
    await expectRefused(id, react(org.member, id, { emoji_name: "octopus", emoji_code: "1f419", reaction_type: "sticker_emoji" }), "BAD_REQUEST", "Invalid emoji type.");
    // Zulip's name of the extra emoji type means svc_extra_emoji, with that type's checks.
    await expectRefused(id, react(org.member, id, { emoji_name: "octopus", emoji_code: "1f419", reaction_type: "zulip_extra_emoji" }), "BAD_REQUEST", "Invalid emoji code.");
    await expectRefused(id, react(org.member, id, { emoji_name: "parrot", emoji_code: "1", reaction_type: "realm_emoji" }), "BAD_REQUEST", "Invalid custom emoji.");
    await expectRefused(id, react(org.member, id, { emoji_name: "octopus", emoji_code: "1f419", reaction_type: "svc_extra_emoji" }), "BAD_REQUEST", "Invalid emoji code.");
    await expectRefused(id, react(org.member, id, { emoji_name: "octopus", emoji_code: "zulip", reaction_type: "svc_extra_emoji" }), "BAD_REQUEST", "Invalid emoji name.");
  });

  test("bad input: missing emoji_name, huge strings, a non-numeric message ID", async () => {
    const id = await newMessage();
    await expectRefused(id, react(org.member, id, {}), "BAD_REQUEST");
    await expectRefused(id, react(org.member, id, { emoji_name: "x".repeat(10_000) }), "BAD_REQUEST");
    await expectRefused(id, react(org.member, id, { emoji_name: "octopus", emoji_code: "1".repeat(10_000), reaction_type: "unicode_emoji" }), "BAD_REQUEST");
    expectError(await react(org.member, "abc", { emoji_name: "octopus" }), "BAD_REQUEST");
  });

  test("messages one cannot see are Invalid message(s): unknown IDs, others' DMs, private channels, guests outside public channels", async () => {
    const unknown = 999_999;
    expect(await react(org.member, unknown, { emoji_name: "octopus" })).toMatchObject({ status: 400, body: { code: "BAD_REQUEST", msg: "Invalid message(s)" } });
    const dm = (await sendOk(org.member, directMessage([org.member2.id], "just us"))).id;
    await expectRefused(dm, react(org.admin, dm, { emoji_name: "octopus" }), "BAD_REQUEST", "Invalid message(s)");
    const secret = await newMessage(org.member2, privateName);
    await expectRefused(secret, react(org.member, secret, { emoji_name: "octopus" }), "BAD_REQUEST", "Invalid message(s)");
    await expectRefused(secret, react(org.owner, secret, { emoji_name: "octopus" }), "BAD_REQUEST", "Invalid message(s)");
    const open = await newMessage();
    await expectRefused(open, react(org.guest, open, { emoji_name: "octopus" }), "BAD_REQUEST", "Invalid message(s)");
    ok(await react(org.member2, dm, { emoji_name: "octopus" }));
    ok(await react(org.admin, open, { emoji_name: "octopus" }));
  });

  test("messages in an archived channel can no longer get reactions", async () => {
    const name = uniqueName("archived");
    const channelId = await createChannel(org, org.admin, {}, name);
    const id = await newMessage(org.admin, name);
    ok(await org.admin.api.delete(`/streams/${channelId}`));
    await expectRefused(id, react(org.admin, id, { emoji_name: "octopus" }), "BAD_REQUEST", "Invalid message(s)");
  });
});

describe("removing a reaction", () => {
  test("by name, or by code and type; only one's own", async () => {
    const id = await newMessage();
    ok(await react(org.member, id, { emoji_name: "octopus" }));
    ok(await react(org.member2, id, { emoji_name: "octopus" }));
    ok(await react(org.member, id, { emoji_name: "zulip" }));
    const body = ok(await unreact(org.member, id, { emoji_name: "octopus" }));
    expect(body).toEqual({ result: "success", msg: "" });
    ok(await unreact(org.member, id, { emoji_code: "zulip", reaction_type: "svc_extra_emoji" }));
    expect(storedReactions(id)).toEqual([{ user_id: org.member2.id, emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" }]);
  });

  test("a code without a type means a Unicode emoji, whatever its name is now", async () => {
    const id = await newMessage();
    ok(await react(org.member, id, { emoji_name: "+1" }));
    ok(await unreact(org.member, id, { emoji_code: "1f44d" }));
    expect(storedReactions(id)).toEqual([]);
  });

  test("a reaction that is not there is REACTION_DOES_NOT_EXIST, also someone else's", async () => {
    const id = await newMessage();
    ok(await react(org.member2, id, { emoji_name: "octopus" }));
    await expectRefused(id, unreact(org.member, id, { emoji_name: "octopus" }), "REACTION_DOES_NOT_EXIST", "Reaction doesn't exist.");
    await expectRefused(id, unreact(org.member, id, { emoji_code: "1f389", reaction_type: "unicode_emoji" }), "REACTION_DOES_NOT_EXIST");
    await expectRefused(id, unreact(org.member, id, { emoji_name: "zulip" }), "REACTION_DOES_NOT_EXIST");
  });

  test("invalid emoji codes and names, no emoji at all, bad types", async () => {
    const id = await newMessage();
    ok(await react(org.member, id, { emoji_name: "octopus" }));
    await expectRefused(id, unreact(org.member, id, { emoji_code: "not-hex", reaction_type: "unicode_emoji" }), "BAD_REQUEST", "Invalid emoji code.");
    await expectRefused(id, unreact(org.member, id, { emoji_code: "7", reaction_type: "realm_emoji" }), "BAD_REQUEST", "Invalid custom emoji.");
    await expectRefused(id, unreact(org.member, id, { emoji_name: "no_such_emoji_here" }), "BAD_REQUEST", "Emoji 'no_such_emoji_here' does not exist");
    await expectRefused(id, unreact(org.member, id, {}), "BAD_REQUEST", "At least one of the following arguments must be present: emoji_name, emoji_code");
    await expectRefused(id, unreact(org.member, id, { emoji_code: "1f419", reaction_type: "bogus" }), "BAD_REQUEST", "Invalid emoji type.");
    await expectRefused(id, unreact(org.member, id, { emoji_code: "1f419".repeat(1000) }), "BAD_REQUEST");
  });

  test("on a message one cannot see: Invalid message(s), and the reaction stays", async () => {
    const id = await newMessage(org.member2, privateName);
    ok(await react(org.member2, id, { emoji_name: "octopus" }));
    await expectRefused(id, unreact(org.member, id, { emoji_name: "octopus" }), "BAD_REQUEST", "Invalid message(s)");
  });
});

describe("reaction events", () => {
  test("go to the channel's subscribers and the reactor, with the reference's shape; not to others", async () => {
    const id = await newMessage();
    const queues = new Map<Person, string>();
    for (const person of [org.member, org.member2, org.admin, org.guest, org.owner]) queues.set(person, (await register(person, { event_types: ["reaction"] })).queue_id);
    ok(await react(org.admin, id, { emoji_name: "tada" }));
    const expected = {
      type: "reaction",
      op: "add",
      message_id: id,
      emoji_name: "tada",
      emoji_code: "1f389",
      reaction_type: "unicode_emoji",
      user_id: org.admin.id,
      user: { user_id: org.admin.id, email: org.admin.email, full_name: "Ada Admin" },
    };
    for (const person of [org.member, org.member2, org.admin]) expect(await pendingOf(person, queues.get(person)!, ["reaction"])).toEqual([{ ...expected, id: 0 }]);
    for (const person of [org.guest, org.owner]) expect(await pendingOf(person, queues.get(person)!, ["reaction"])).toEqual([]);
    ok(await unreact(org.admin, id, { emoji_name: "tada" }));
    const removed = await pendingOf(org.member2, queues.get(org.member2)!, ["reaction"]);
    expect(removed[1]).toEqual({ ...expected, op: "remove", id: 1 });
    expect(await pendingOf(org.owner, queues.get(org.owner)!, ["reaction"])).toEqual([]);
  });

  test("on a direct message only its participants hear", async () => {
    const id = (await sendOk(org.member, directMessage([org.member2.id], "psst"))).id;
    const queues = new Map<Person, string>();
    for (const person of [org.member, org.member2, org.admin, org.guest]) queues.set(person, (await register(person, { event_types: ["reaction"] })).queue_id);
    ok(await react(org.member2, id, { emoji_name: "octopus" }));
    const added = [{ type: "reaction", op: "add", message_id: id, emoji_name: "octopus", user_id: org.member2.id }];
    expect(await pendingOf(org.member, queues.get(org.member)!, ["reaction"])).toMatchObject(added);
    expect(await pendingOf(org.member2, queues.get(org.member2)!, ["reaction"])).toMatchObject(added);
    expect(await pendingOf(org.admin, queues.get(org.admin)!, ["reaction"])).toEqual([]);
    expect(await pendingOf(org.guest, queues.get(org.guest)!, ["reaction"])).toEqual([]);
  });

  test("a refused reaction sends nothing", async () => {
    const id = await newMessage();
    ok(await react(org.member, id, { emoji_name: "octopus" }));
    const queue = (await register(org.member2, { event_types: ["reaction"] })).queue_id;
    expectError(await react(org.member, id, { emoji_name: "octopus" }), "REACTION_ALREADY_EXISTS");
    expectError(await unreact(org.member2, id, { emoji_name: "octopus" }), "REACTION_DOES_NOT_EXIST");
    // An accepted reaction afterwards: once it is queued, anything the refused ones sent would be too.
    ok(await react(org.member2, id, { emoji_name: "tada" }));
    expect(await pendingOf(org.member2, queue, ["reaction"])).toMatchObject([{ op: "add", message_id: id, emoji_name: "tada", user_id: org.member2.id }]);
  });
});
