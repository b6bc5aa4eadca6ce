import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, subscribe } from "../helpers/channels";
import { expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { SEED_TIMEOUT_MS, pendingOf, register } from "../events/support";

/** POST, GET, PATCH and DELETE /scheduled_messages (spec 4.2, 2.6) and their events. */

let org: Org;
let publicChannel: number;
let privateChannel: number;

beforeAll(async () => {
  org = await seedOrg();
  publicChannel = await createChannel(org, org.owner);
  privateChannel = await createChannel(org, org.owner, { invite_only: true });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

/** Far enough ahead that the delivery job never touches these during the test. */
const later = (hours = 1) => Math.floor(Date.now() / 1000) + hours * 3600;
const rowCount = () => queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM scheduled_messages")[0].n;
const rowsOf = () => queryServer<Record<string, unknown>>(org.server, "SELECT * FROM scheduled_messages ORDER BY id");
const listOf = async (person: Person) => ok(await person.api.get("/scheduled_messages")).scheduled_messages as Array<Record<string, any>>;
const queueOf = async (person: Person) => (await register(person, { fetch_event_types: [] })).queue_id as string;
const strip = (events: Array<{ id: number }>) => events.map(({ id: _id, ...event }) => event);
const schedule = (person: Person, params: Record<string, unknown>) => person.api.post("/scheduled_messages", params);
/** A channel message's parameters; an `undefined` in `extra` leaves that parameter out. */
const channelParams = (extra: Record<string, unknown> = {}) =>
  Object.fromEntries(Object.entries({ type: "stream", to: publicChannel, topic: "plans", content: "See you **tomorrow**", scheduled_delivery_timestamp: later(), ...extra }).filter(([, value]) => value !== undefined));

/** A refusal must leave the table and the sender's list as they were. */
async function expectRefused(person: Person, params: Record<string, unknown>, code: string, msg?: string, status = 400) {
  const before = rowsOf();
  const response = await schedule(person, params);
  expectError(response, code, status);
  if (msg !== undefined) expect(response.body.msg).toBe(msg);
  expect(rowsOf()).toEqual(before);
  return response.body;
}

describe("POST /scheduled_messages", () => {
  test("schedules a channel message: its ID, the list, register's section and one add event to the sender only", async () => {
    const own = await queueOf(org.member);
    const other = await queueOf(org.member2);
    const at = later();
    const body = ok(await schedule(org.member, channelParams({ scheduled_delivery_timestamp: at })));
    expect(Object.keys(body).sort()).toEqual(["msg", "result", "scheduled_message_id"]);
    const expected = { scheduled_message_id: body.scheduled_message_id, to: publicChannel, type: "stream", topic: "plans", content: "See you **tomorrow**", rendered_content: "<p>See you <strong>tomorrow</strong></p>", scheduled_delivery_timestamp: at, failed: false };
    expect((await listOf(org.member)).find((each) => each.scheduled_message_id === body.scheduled_message_id)).toEqual(expected);
    const snapshot = ok(await org.member.api.post("/register", { fetch_event_types: ["scheduled_messages"] }));
    expect(snapshot.scheduled_messages).toContainEqual(expected);
    expect(strip(await pendingOf(org.member, own, ["scheduled_messages"]))).toEqual([{ type: "scheduled_messages", op: "add", scheduled_messages: [expected] }]);
    expect(await pendingOf(org.member2, other, ["scheduled_messages"])).toEqual([]);
    expect(await listOf(org.member2)).toEqual([]);
  });

  test("every type alias: channel and stream, direct and private; topic's alias subject; a list of one channel ID", async () => {
    const person = org.moderator;
    const a = ok(await schedule(person, channelParams({ type: "channel", to: JSON.stringify([publicChannel]), topic: undefined, subject: "via subject" }))).scheduled_message_id;
    const b = ok(await schedule(person, { type: "direct", to: JSON.stringify([org.member.id]), content: "one on one", scheduled_delivery_timestamp: later(2) })).scheduled_message_id;
    const c = ok(await schedule(person, { type: "private", to: JSON.stringify([org.member.id, org.member2.id]), content: "group", topic: "ignored", scheduled_delivery_timestamp: later(3) })).scheduled_message_id;
    const d = ok(await schedule(person, { type: "direct", to: JSON.stringify([person.id]), content: "note to self", scheduled_delivery_timestamp: later(4) })).scheduled_message_id;
    const list = await listOf(person);
    expect(list.map((each) => each.scheduled_message_id)).toEqual([a, b, c, d]);
    expect(list[0]).toMatchObject({ type: "stream", to: publicChannel, topic: "via subject" });
    // One-on-one: the other person; a group: everyone, the sender included (as the reference).
    expect(list[1]).toEqual({ scheduled_message_id: b, to: [org.member.id], type: "private", content: "one on one", rendered_content: "<p>one on one</p>", scheduled_delivery_timestamp: list[1].scheduled_delivery_timestamp, failed: false });
    expect(list[2].to).toEqual([person.id, org.member.id, org.member2.id].sort((x, y) => x - y));
    expect(list[2]).not.toHaveProperty("topic");
    expect(list[3].to).toEqual([person.id]);
  });

  test("read_by_sender: as given, else read for a person's client unless to oneself only", async () => {
    const person = org.admin;
    const given = ok(await schedule(person, channelParams({ read_by_sender: false, client: "website" }))).scheduled_message_id;
    const human = ok(await schedule(person, channelParams({ client: "website" }))).scheduled_message_id;
    const self = ok(await schedule(person, { type: "direct", to: JSON.stringify([person.id]), content: "self", client: "website", scheduled_delivery_timestamp: later() })).scheduled_message_id;
    const api = ok(await schedule(person, channelParams({ client: "my-script" }))).scheduled_message_id;
    const stored = (id: number) => queryServer<{ read_by_sender: number }>(org.server, "SELECT read_by_sender FROM scheduled_messages WHERE id = ?", id)[0].read_by_sender;
    expect([stored(given), stored(human), stored(self), stored(api)]).toEqual([0, 1, 0, 0]);
  });

  test("a channel that does not exist, or that the sender may not know of: STREAM_DOES_NOT_EXIST with stream_id only", async () => {
    for (const id of [999_999, privateChannel]) {
      const body = await expectRefused(org.member, channelParams({ to: id }), "STREAM_DOES_NOT_EXIST");
      expect(body).toEqual({ result: "error", code: "STREAM_DOES_NOT_EXIST", msg: `Channel with ID '${id}' does not exist`, stream_id: id });
    }
  });

  test("BAD_REQUEST: an unknown user, a past or present time, no topic, empty content, a bad type or `to`", async () => {
    await expectRefused(org.member, { type: "direct", to: JSON.stringify([10_000]), content: "hi", scheduled_delivery_timestamp: later() }, "BAD_REQUEST", "Invalid user ID 10000");
    await expectRefused(org.member, channelParams({ scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) - 5 }), "BAD_REQUEST", "Scheduled delivery time must be in the future.");
    await expectRefused(org.member, channelParams({ topic: undefined }), "BAD_REQUEST", "Missing topic");
    await expectRefused(org.member, channelParams({ content: "   " }), "BAD_REQUEST", "Message must not be empty");
    await expectRefused(org.member, channelParams({ type: "broadcast" }), "BAD_REQUEST", "Invalid type");
    await expectRefused(org.member, channelParams({ to: "general" }), "BAD_REQUEST", "Invalid data type for channel ID");
    await expectRefused(org.member, { type: "direct", to: JSON.stringify(["a@example.com"]), content: "hi", scheduled_delivery_timestamp: later() }, "BAD_REQUEST", "Recipient list may only contain user IDs");
    await expectRefused(org.member, { type: "direct", to: "[]", content: "hi", scheduled_delivery_timestamp: later() }, "BAD_REQUEST");
    await expectRefused(org.member, channelParams({ content: "x".repeat(10_001) }), "BAD_REQUEST");
  });

  test("malformed or missing parameters are refused naming them, changing nothing", async () => {
    await expectRefused(org.member, channelParams({ scheduled_delivery_timestamp: "soon" }), "BAD_REQUEST");
    await expectRefused(org.member, channelParams({ scheduled_delivery_timestamp: 1.5 }), "BAD_REQUEST");
    await expectRefused(org.member, channelParams({ scheduled_delivery_timestamp: undefined }), "BAD_REQUEST");
    await expectRefused(org.member, channelParams({ content: undefined }), "BAD_REQUEST");
    await expectRefused(org.member, channelParams({ to: undefined }), "BAD_REQUEST");
    await expectRefused(org.member, channelParams({ read_by_sender: "maybe" }), "BAD_REQUEST");
  });

  test("the sender's rights are a send's: a guest only where subscribed; anonymous callers not at all; a bot may", async () => {
    // A public channel a guest is not in does not exist for them, as for a send.
    await expectRefused(org.guest, channelParams(), "STREAM_DOES_NOT_EXIST", `Channel with ID '${publicChannel}' does not exist`);
    const before = rowCount();
    expectError(await org.anon.post("/scheduled_messages", channelParams()), "UNAUTHORIZED", 401);
    expect(rowCount()).toBe(before);
    ok(await schedule(org.bot, channelParams()));
    const name = (await org.owner.api.get(`/streams/${publicChannel}`)).body.stream.name;
    await subscribe(org.owner, [name], { principals: JSON.stringify([org.guest.id]) });
    ok(await schedule(org.guest, channelParams()));
  });
});

describe("PATCH /scheduled_messages/{id}", () => {
  test("edits content, topic and time; checks the message again; the sender's clients get the update", async () => {
    const id = ok(await schedule(org.member, channelParams())).scheduled_message_id;
    const own = await queueOf(org.member);
    const at = later(5);
    ok(await org.member.api.patch(`/scheduled_messages/${id}`, { content: "*changed*", topic: "new plans", scheduled_delivery_timestamp: at }));
    const expected = { scheduled_message_id: id, to: publicChannel, type: "stream", topic: "new plans", content: "*changed*", rendered_content: "<p><em>changed</em></p>", scheduled_delivery_timestamp: at, failed: false };
    expect((await listOf(org.member)).find((each) => each.scheduled_message_id === id)).toEqual(expected);
    expect(strip(await pendingOf(org.member, own, ["scheduled_messages"]))).toEqual([{ type: "scheduled_messages", op: "update", scheduled_message: expected }]);
  });

  test("changes a channel message into a direct one and back", async () => {
    const id = ok(await schedule(org.member, channelParams())).scheduled_message_id;
    ok(await org.member.api.patch(`/scheduled_messages/${id}`, { type: "direct", to: JSON.stringify([org.member2.id]) }));
    let row = (await listOf(org.member)).find((each) => each.scheduled_message_id === id)!;
    expect(row).toMatchObject({ type: "private", to: [org.member2.id], content: "See you **tomorrow**" });
    expect(row).not.toHaveProperty("topic");
    ok(await org.member.api.patch(`/scheduled_messages/${id}`, { type: "channel", to: String(publicChannel), topic: "back" }));
    row = (await listOf(org.member)).find((each) => each.scheduled_message_id === id)!;
    expect(row).toMatchObject({ type: "stream", to: publicChannel, topic: "back" });
  });

  test("refusals: nothing to change, a type without `to`, a channel type without topic, a past time, an unknown channel, someone else's message", async () => {
    const id = ok(await schedule(org.member, channelParams())).scheduled_message_id;
    const cases: Array<[Person, Record<string, unknown>, string, string | undefined, number]> = [
      [org.member, {}, "BAD_REQUEST", "Nothing to change", 400],
      [org.member, { type: "direct" }, "BAD_REQUEST", "Recipient required when updating type of scheduled message.", 400],
      [org.member, { type: "stream", to: String(publicChannel) }, "BAD_REQUEST", "Topic required when updating scheduled message type to stream.", 400],
      [org.member, { scheduled_delivery_timestamp: 1000 }, "BAD_REQUEST", "Scheduled delivery time must be in the future.", 400],
      [org.member, { to: "999999" }, "STREAM_DOES_NOT_EXIST", "Channel with ID '999999' does not exist", 400],
      [org.member, { content: "" }, "BAD_REQUEST", "Message must not be empty", 400],
      [org.member2, { content: "mine now" }, "BAD_REQUEST", "Scheduled message does not exist", 404],
      [org.owner, { content: "mine now" }, "BAD_REQUEST", "Scheduled message does not exist", 404],
    ];
    for (const [person, params, code, msg, status] of cases) {
      const before = rowsOf();
      const response = await person.api.patch(`/scheduled_messages/${id}`, params);
      expectError(response, code, status);
      expect(response.body.msg).toBe(msg!);
      expect(rowsOf()).toEqual(before);
    }
    expectError(await org.member.api.patch("/scheduled_messages/99999", { content: "x" }), "BAD_REQUEST", 404);
    expectError(await org.member.api.patch("/scheduled_messages/abc", { content: "x" }), "BAD_REQUEST");
  });
});

describe("DELETE /scheduled_messages/{id}", () => {
  test("cancels it: gone from the list, one remove event to the sender", async () => {
    const id = ok(await schedule(org.member, channelParams())).scheduled_message_id;
    const own = await queueOf(org.member);
    ok(await org.member.api.delete(`/scheduled_messages/${id}`));
    expect((await listOf(org.member)).some((each) => each.scheduled_message_id === id)).toBe(false);
    expect(strip(await pendingOf(org.member, own, ["scheduled_messages"]))).toEqual([{ type: "scheduled_messages", op: "remove", scheduled_message_id: id }]);
    expectError(await org.member.api.delete(`/scheduled_messages/${id}`), "BAD_REQUEST", 404);
  });

  test("nobody else may cancel it, administrators included; a refusal changes nothing and tells nobody", async () => {
    const id = ok(await schedule(org.member, channelParams())).scheduled_message_id;
    const own = await queueOf(org.member);
    for (const person of [org.member2, org.admin, org.owner, org.guest]) {
      const before = rowsOf();
      const response = await person.api.delete(`/scheduled_messages/${id}`);
      expectError(response, "BAD_REQUEST", 404);
      expect(response.body.msg).toBe("Scheduled message does not exist");
      expect(rowsOf()).toEqual(before);
    }
    expectError(await org.anon.delete(`/scheduled_messages/${id}`), "UNAUTHORIZED", 401);
    expect(await pendingOf(org.member, own, ["scheduled_messages"])).toEqual([]);
  });
});
