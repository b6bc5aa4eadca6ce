import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { SEED_TIMEOUT_MS, type Event, pendingOf, register } from "../events/support";

/** POST /typing and POST /messages/{id}/typing (spec 4.4): parameters and errors. Events: test/events/typing.test.ts. */

let org: Org;
let channel: number;
let secret: number;

beforeAll(async () => {
  org = await seedOrg();
  channel = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] });
  secret = await createChannel(org, org.admin, { invite_only: true });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const typing = (params: Record<string, unknown>) => org.member.api.post("/typing", params);

/** A queue for typing events, channel ones included. */
async function typingQueue(person: Person): Promise<string> {
  const params = { event_types: ["typing", "typing_edit_message"], fetch_event_types: [], client_capabilities: { stream_typing_notifications: true, empty_topic_name: true } };
  return (await register(person, params)).queue_id;
}

const typingEvents = async (person: Person, queueId: string) => (await pendingOf(person, queueId, ["typing", "typing_edit_message"])).map(({ id: _id, ...event }) => event as Omit<Event, "id">);

/** What a direct typing event says, with the recipients as a sorted list of IDs. */
const directSummary = ({ type, op, message_type, sender, recipients, ...rest }: Record<string, any>) => ({
  type, op, message_type, sender_id: sender.user_id, recipient_ids: recipients.map((user: { user_id: number }) => user.user_id).sort((a: number, b: number) => a - b), rest,
});
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe("POST /typing", () => {
  test("direct typing is the default type, and to is a JSON list of user IDs", async () => {
    const [qMember, qMember2, qAdmin] = await Promise.all([org.member, org.member2, org.admin].map(typingQueue));
    expect(ok(await typing({ op: "start", to: [org.member2.id] }))).toEqual({ result: "success", msg: "" });
    ok(await typing({ type: "direct", op: "stop", to: [org.member2.id, org.admin.id] }));
    ok(await typing({ type: "direct", op: "start", to: [org.member.id] }));
    const toMember2 = { type: "typing", op: "start", message_type: "direct", sender_id: org.member.id, recipient_ids: sorted([org.member.id, org.member2.id]), rest: {} };
    const toBoth = { type: "typing", op: "stop", message_type: "direct", sender_id: org.member.id, recipient_ids: sorted([org.member.id, org.member2.id, org.admin.id]), rest: {} };
    const toSelf = { type: "typing", op: "start", message_type: "direct", sender_id: org.member.id, recipient_ids: [org.member.id], rest: {} };
    expect((await typingEvents(org.member, qMember)).map(directSummary)).toEqual([toMember2, toBoth, toSelf]);
    expect((await typingEvents(org.member2, qMember2)).map(directSummary)).toEqual([toMember2, toBoth]);
    expect((await typingEvents(org.admin, qAdmin)).map(directSummary)).toEqual([toBoth]);
  });

  test("channel typing, as type stream or channel, with stream_id and topic; `to` is ignored", async () => {
    const [qMember2, qAdmin] = await Promise.all([org.member2, org.admin].map(typingQueue));
    ok(await typing({ type: "channel", op: "start", stream_id: channel, topic: "plans" }));
    ok(await typing({ type: "stream", op: "stop", stream_id: channel, topic: "plans", to: [12345] }));
    ok(await typing({ type: "channel", op: "start", stream_id: channel, topic: "(no topic)" }));
    const sender = { user_id: org.member.id };
    expect(await typingEvents(org.member2, qMember2)).toMatchObject([
      { type: "typing", op: "start", message_type: "stream", sender, stream_id: channel, topic: "plans" },
      { type: "typing", op: "stop", message_type: "stream", sender, stream_id: channel, topic: "plans" },
      { type: "typing", op: "start", message_type: "stream", sender, stream_id: channel, topic: "" },
    ]);
    for (const event of await typingEvents(org.member2, qMember2)) expect(event).not.toHaveProperty("recipients");
    // The admin is not subscribed: `to` named nobody who hears.
    expect(await typingEvents(org.admin, qAdmin)).toEqual([]);
  });

  test("for direct typing, stream_id and topic are ignored", async () => {
    const qMember2 = await typingQueue(org.member2);
    ok(await typing({ op: "start", to: [org.member2.id], stream_id: 999999, topic: "whatever" }));
    expect((await typingEvents(org.member2, qMember2)).map(directSummary)).toEqual([
      { type: "typing", op: "start", message_type: "direct", sender_id: org.member.id, recipient_ids: sorted([org.member.id, org.member2.id]), rest: {} },
    ]);
  });

  test("the no-longer-accepted type private, and unknown types and ops, are 400s", async () => {
    for (const params of [
      { type: "private", op: "start", to: [org.member2.id] },
      { type: "huddle", op: "start", to: [org.member2.id] },
      { op: "typing", to: [org.member2.id] },
      { to: [org.member2.id] },
    ]) {
      expectError(await typing(params), "BAD_REQUEST");
    }
  });

  test("direct typing without recipients, or with malformed or unknown ones, is refused", async () => {
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ op: "start" }, "Missing 'to' argument"],
      [{ op: "start", to: [] }, "Empty 'to' list"],
      [{ op: "start", to: [org.member2.id, 999999] }, "Invalid user ID 999999"],
      [{ op: "start", to: "[1, 2" }, /to/],
      [{ op: "start", to: '["a"]' }, /to/],
    ];
    for (const [params, message] of cases) {
      const response = await typing(params);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toMatch(message);
    }
  });

  test("channel typing without a channel ID is refused, as is a missing topic", async () => {
    const missing = await typing({ type: "channel", op: "start", topic: "plans" });
    expectError(missing, "BAD_REQUEST");
    expect(missing.body.msg).toBe("Missing channel ID");
    const noTopic = await typing({ type: "stream", op: "start", stream_id: channel });
    expectError(noTopic, "BAD_REQUEST");
    expect(noTopic.body.msg).toBe("Missing topic");
    expectError(await typing({ type: "channel", op: "start", stream_id: "abc", topic: "plans" }), "BAD_REQUEST");
    expectError(await typing({ type: "channel", op: "start", stream_id: channel, topic: "t".repeat(61) }), "BAD_REQUEST");
  });

  test("unknown channels and private channels the sender cannot reach look alike", async () => {
    for (const id of [999999, secret]) {
      const response = await typing({ type: "channel", op: "start", stream_id: id, topic: "plans" });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("Invalid channel ID");
    }
  });

  test("a sender who turned typing notifications off still gets success, and nobody is told", async () => {
    ok(await org.member2.api.patch("/settings", { send_private_typing_notifications: false, send_stream_typing_notifications: false }));
    try {
      const qMember = await typingQueue(org.member);
      expect(ok(await org.member2.api.post("/typing", { op: "start", to: [org.member.id] }))).toEqual({ result: "success", msg: "" });
      expect(ok(await org.member2.api.post("/typing", { type: "channel", op: "start", stream_id: channel, topic: "plans" }))).toEqual({ result: "success", msg: "" });
      // Sent afterwards: once it is queued, anything the two requests above delivered would be too.
      ok(await org.owner.api.post("/typing", { op: "stop", to: [org.member.id] }));
      expect(await typingEvents(org.member, qMember)).toMatchObject([{ type: "typing", op: "stop", sender: { user_id: org.owner.id } }]);
    } finally {
      ok(await org.member2.api.patch("/settings", { send_private_typing_notifications: true, send_stream_typing_notifications: true }));
    }
  });

  test("without credentials, typing is refused", async () => {
    expect((await org.anon.post("/typing", { op: "start", to: [org.member.id] })).status).toBe(401);
  });
});

describe("POST /messages/{message_id}/typing", () => {
  test("someone who may edit a message signals editing it", async () => {
    const { id } = ok(await org.member.api.post("/messages", { type: "channel", to: String(channel), topic: "edits", content: "draft" }));
    const [qMember2, qAdmin] = await Promise.all([org.member2, org.admin].map(typingQueue));
    expect(ok(await org.member.api.post(`/messages/${id}/typing`, { op: "start" }))).toEqual({ result: "success", msg: "" });
    ok(await org.member.api.post(`/messages/${id}/typing`, { op: "stop" }));
    const recipient = { type: "channel", channel_id: channel, topic: "edits" };
    expect(await typingEvents(org.member2, qMember2)).toEqual(
      (["start", "stop"] as const).map((op) => ({ type: "typing_edit_message", op, sender_id: org.member.id, message_id: id, recipient })),
    );
    expect(await typingEvents(org.admin, qAdmin)).toEqual([]);
  });

  test("unknown and unreadable messages, and bad ops, are refused", async () => {
    const { id } = ok(await org.admin.api.post("/messages", { type: "channel", to: String(secret), topic: "hidden", content: "secret" }));
    for (const target of [999999, id]) expectError(await org.member.api.post(`/messages/${target}/typing`, { op: "start" }), "BAD_REQUEST");
    expectError(await org.admin.api.post(`/messages/${id}/typing`, { op: "typing" }), "BAD_REQUEST");
    expectError(await org.admin.api.post(`/messages/${id}/typing`, {}), "BAD_REQUEST");
  });
});
