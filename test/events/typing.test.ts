import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel } from "../helpers/channels";
import { type Org, type Person, ok, seedOrg } from "../helpers/seed";
import { setUserSetting } from "../helpers/sending";
import { SEED_TIMEOUT_MS, type Event, pendingOf, register } from "./support";

/**
 * typing and typing_edit_message events (spec 4.4, 6): only to the would-be recipients who
 * want them; channel typing only to clients with stream_typing_notifications.
 */

let org: Org;
let channel: number;

beforeAll(async () => {
  org = await seedOrg();
  // The admin is not subscribed.
  channel = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.guest.id, org.moderator.id] });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const STREAM_TYPING = { client_capabilities: { stream_typing_notifications: true, empty_topic_name: true } };

async function queue(person: Person, params: Record<string, unknown> = STREAM_TYPING): Promise<string> {
  return (await register(person, { event_types: ["typing", "typing_edit_message"], fetch_event_types: [], ...params })).queue_id;
}

const typingEvents = async (person: Person, queueId: string) => (await pendingOf(person, queueId, ["typing", "typing_edit_message"])).map(({ id: _id, ...event }) => event as Omit<Event, "id">);

/** The address a guest is shown for `person`: typing events show everyone the same one. */
async function shownEmail(person: Person): Promise<string> {
  return ok(await org.guest.api.get(`/users/${person.id}`)).user.email;
}

async function queues(people: Person[], params?: Record<string, unknown>) {
  return Promise.all(people.map((person) => queue(person, params)));
}

/**
 * The owner's typing to `people`, sent after the action under test: once it is in a queue,
 * anything that action delivered is there too, so an empty remainder means nothing was sent.
 */
async function sendMarker(people: Person[]) {
  ok(await org.owner.api.post("/typing", { op: "stop", to: people.map((person) => person.id) }));
}

/** The typing events queued before the marker, which must have arrived. */
async function heardBeforeMarker(person: Person, queueId: string) {
  const events = await typingEvents(person, queueId);
  expect(events.at(-1)).toMatchObject({ type: "typing", op: "stop", sender: { user_id: org.owner.id } });
  return events.slice(0, -1);
}

describe("direct typing", () => {
  test("start and stop reach the recipients and the sender, in the reference shape, and nobody else", async () => {
    const [member, member2, moderator, admin, guest] = [org.member, org.member2, org.moderator, org.admin, org.guest];
    const [qMember, qMember2, qModerator, qAdmin, qGuest] = await queues([member, member2, moderator, admin, guest]);
    ok(await member.api.post("/typing", { op: "start", to: [member2.id, moderator.id] }));
    ok(await member.api.post("/typing", { op: "stop", to: [member2.id, moderator.id] }));
    const sender = { user_id: member.id, email: await shownEmail(member) };
    const recipients = [
      { user_id: member2.id, email: await shownEmail(member2) },
      { user_id: moderator.id, email: await shownEmail(moderator) },
      sender,
    ];
    const expected = ["start", "stop"].map((op) => ({ type: "typing", op, message_type: "direct", sender, recipients }));
    for (const [person, queueId] of [[member, qMember], [member2, qMember2], [moderator, qModerator]] as const) {
      expect(await typingEvents(person, queueId)).toEqual(expected);
    }
    expect(await typingEvents(admin, qAdmin)).toEqual([]);
    expect(await typingEvents(guest, qGuest)).toEqual([]);
  });

  test("recipients with receives_typing_notifications off are not told; the rest are", async () => {
    setUserSetting(org.server, org.member2.id, "receives_typing_notifications", false);
    try {
      const [q2, qModerator, qAdmin] = await queues([org.member2, org.moderator, org.admin]);
      ok(await org.member.api.post("/typing", { op: "start", to: [org.member2.id, org.moderator.id] }));
      expect(await typingEvents(org.member2, q2)).toEqual([]);
      expect(await typingEvents(org.moderator, qModerator)).toMatchObject([{ type: "typing", op: "start", sender: { user_id: org.member.id } }]);
      expect(await typingEvents(org.admin, qAdmin)).toEqual([]);
    } finally {
      setUserSetting(org.server, org.member2.id, "receives_typing_notifications", true);
    }
  });

  test("a sender with send_private_typing_notifications off gets success and sends nothing", async () => {
    ok(await org.member.api.patch("/settings", { send_private_typing_notifications: false }));
    try {
      const [qSender, q2] = await queues([org.member, org.member2]);
      expect(ok(await org.member.api.post("/typing", { op: "start", to: [org.member2.id] }))).toEqual({ result: "success", msg: "" });
      // Channel typing is governed by the other setting; its arrival shows the direct one would have arrived.
      ok(await org.member.api.post("/typing", { type: "channel", op: "start", stream_id: channel, topic: "still on" }));
      const channelOnly = [{ type: "typing", op: "start", message_type: "stream", stream_id: channel, topic: "still on" }];
      expect(await typingEvents(org.member2, q2)).toMatchObject(channelOnly);
      expect(await typingEvents(org.member, qSender)).toMatchObject(channelOnly);
    } finally {
      ok(await org.member.api.patch("/settings", { send_private_typing_notifications: true }));
    }
  });

  test("a refused request sends nothing", async () => {
    const [qSender, q2] = await queues([org.member, org.member2]);
    expect((await org.member.api.post("/typing", { op: "start", to: [org.member2.id, 999999] })).status).toBe(400);
    await sendMarker([org.member, org.member2]);
    expect(await heardBeforeMarker(org.member2, q2)).toEqual([]);
    expect(await heardBeforeMarker(org.member, qSender)).toEqual([]);
  });
});

describe("channel typing", () => {
  test("subscribers whose clients declared stream_typing_notifications are told; others and non-subscribers are not", async () => {
    const [qMember2, qGuest, qAdmin] = await queues([org.member2, org.guest, org.admin]);
    const qPlain = await queue(org.member2, {});
    ok(await org.member.api.post("/typing", { type: "channel", op: "start", stream_id: channel, topic: "plans" }));
    ok(await org.member.api.post("/typing", { type: "stream", op: "stop", stream_id: channel, topic: "plans" }));
    const sender = { user_id: org.member.id, email: await shownEmail(org.member) };
    const expected = ["start", "stop"].map((op) => ({ type: "typing", op, message_type: "stream", sender, stream_id: channel, topic: "plans" }));
    expect(await typingEvents(org.member2, qMember2)).toEqual(expected);
    expect(await typingEvents(org.guest, qGuest)).toEqual(expected);
    expect(await typingEvents(org.member2, qPlain)).toEqual([]);
    expect(await typingEvents(org.admin, qAdmin)).toEqual([]);
  });

  test("the empty topic is shown as the display name to clients without empty_topic_name", async () => {
    const modern = await queue(org.member2);
    const older = await queue(org.member2, { client_capabilities: { stream_typing_notifications: true } });
    const { realm_empty_topic_display_name } = ok(await org.member2.api.post("/register", { fetch_event_types: ["realm"] }));
    ok(await org.member.api.post("/typing", { type: "channel", op: "start", stream_id: channel, topic: "(no topic)" }));
    expect((await typingEvents(org.member2, modern))[0].topic).toBe("");
    expect((await typingEvents(org.member2, older))[0].topic).toBe(realm_empty_topic_display_name);
  });

  test("subscribers with receives_typing_notifications off, and senders with send_stream_typing_notifications off", async () => {
    setUserSetting(org.server, org.guest.id, "receives_typing_notifications", false);
    try {
      const [q2, qGuest, qAdmin] = await queues([org.member2, org.guest, org.admin]);
      ok(await org.member.api.post("/typing", { type: "channel", op: "start", stream_id: channel, topic: "quiet" }));
      expect(await typingEvents(org.guest, qGuest)).toEqual([]);
      expect(await typingEvents(org.member2, q2)).toMatchObject([{ type: "typing", op: "start", stream_id: channel, topic: "quiet" }]);
      expect(await typingEvents(org.admin, qAdmin)).toEqual([]);
    } finally {
      setUserSetting(org.server, org.guest.id, "receives_typing_notifications", true);
    }
    ok(await org.member.api.patch("/settings", { send_stream_typing_notifications: false }));
    try {
      const [qSender, q2, qGuest] = await queues([org.member, org.member2, org.guest]);
      ok(await org.member.api.post("/typing", { type: "channel", op: "start", stream_id: channel, topic: "silent" }));
      await sendMarker([org.member, org.member2, org.guest]);
      expect(await heardBeforeMarker(org.member2, q2)).toEqual([]);
      expect(await heardBeforeMarker(org.guest, qGuest)).toEqual([]);
      expect(await heardBeforeMarker(org.member, qSender)).toEqual([]);
    } finally {
      ok(await org.member.api.patch("/settings", { send_stream_typing_notifications: true }));
    }
  });
});

describe("editing typing", () => {
  test("a channel message's subscribers are told who is editing which message", async () => {
    const { id } = ok(await org.member.api.post("/messages", { type: "channel", to: String(channel), topic: "edit me", content: "v1" }));
    const [q2, qAdmin] = await queues([org.member2, org.admin]);
    ok(await org.member.api.post(`/messages/${id}/typing`, { op: "start" }));
    expect(await typingEvents(org.member2, q2)).toEqual([
      { type: "typing_edit_message", op: "start", sender_id: org.member.id, message_id: id, recipient: { type: "channel", channel_id: channel, topic: "edit me" } },
    ]);
    expect(await typingEvents(org.admin, qAdmin)).toEqual([]);
  });

  test("a direct message's participants are told, and nobody else", async () => {
    const { id } = ok(await org.member.api.post("/messages", { type: "direct", to: [org.member2.id], content: "dm" }));
    const [q2, qModerator] = await queues([org.member2, org.moderator]);
    ok(await org.member.api.post(`/messages/${id}/typing`, { op: "stop" }));
    const participants = [org.member.id, org.member2.id].sort((a, b) => a - b);
    expect(await typingEvents(org.member2, q2)).toEqual([
      { type: "typing_edit_message", op: "stop", sender_id: org.member.id, message_id: id, recipient: { type: "direct", user_ids: participants } },
    ]);
    expect(await typingEvents(org.moderator, qModerator)).toEqual([]);
  });
});
