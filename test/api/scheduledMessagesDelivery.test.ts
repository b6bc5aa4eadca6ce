import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../helpers/client";
import { createChannel, queryServer } from "../helpers/channels";
import { createPerson, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS, pendingOf, register } from "../events/support";

/**
 * Delivery of scheduled messages by the server's job (spec 3: Pending → sent with a new
 * message ID): on time, through the send path, exactly once across kill -9 and restarts, and
 * failures recorded and told to the sender. The job looks each second (the default).
 */

let org: Org;
let channel: number;
let channelName: string;

beforeAll(async () => {
  org = await seedOrg();
  channel = await createChannel(org, org.owner, { principals: JSON.stringify([org.owner.id, org.member.id, org.member2.id]) });
  channelName = ok(await org.owner.api.get(`/streams/${channel}`)).stream.name;
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const nowSeconds = () => Math.floor(Date.now() / 1000);
const queueOf = async (person: Person) => (await register(person, { fetch_event_types: [] })).queue_id as string;
const strip = (events: Array<{ id: number }>) => events.map(({ id: _id, ...event }) => event as Record<string, any>);
const rowOf = (id: number) => queryServer<Record<string, any>>(org.server, "SELECT * FROM scheduled_messages WHERE id = ?", id)[0];
const messagesWith = (content: string) => queryServer<{ id: number; date_sent: number; sender_id: number; rendered_content: string; client: string; topic: string }>(org.server, "SELECT * FROM messages WHERE content = ?", content);

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 6000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

const schedule = async (person: Person, params: Record<string, unknown>) => ok(await person.api.post("/scheduled_messages", params)).scheduled_message_id as number;

describe("delivery", () => {
  test("a due message is sent within a second of its time, rendered as a send would, with a new ID and the send's events", async () => {
    const content = `On **time** @**${"Max Member"}** ${crypto.randomUUID()}`;
    const senderQueue = await queueOf(org.member);
    const readerQueue = await queueOf(org.member2);
    const at = nowSeconds() + 2;
    const id = await schedule(org.member, { type: "channel", to: channel, topic: "timely", content, scheduled_delivery_timestamp: at, client: "website" });
    const [message] = await until("delivery", () => messagesWith(content)[0] && messagesWith(content));
    expect(message.date_sent).toBeGreaterThanOrEqual(at);
    expect(message.date_sent).toBeLessThanOrEqual(at + 1);
    expect(message).toMatchObject({ sender_id: org.member.id, topic: "timely", client: "website" });
    // The same rendering as POST /messages of the same text.
    const direct = await sendOk(org.member, { type: "channel", to: String(channel), topic: "timely", content });
    expect(message.rendered_content).toBe(messagesWith(content).find((each) => each.id === direct.id)!.rendered_content);
    expect(rowOf(id)).toMatchObject({ delivered: 1, delivered_message_id: message.id, failed: 0 });
    expect((ok(await org.member.api.get("/scheduled_messages")).scheduled_messages as Array<{ scheduled_message_id: number }>).some((each) => each.scheduled_message_id === id)).toBe(false);

    const senderEvents = strip(await pendingOf(org.member, senderQueue, ["scheduled_messages", "message"]));
    expect(senderEvents[0]).toMatchObject({ type: "scheduled_messages", op: "add" });
    expect(senderEvents.slice(1, 3)).toEqual(expect.arrayContaining([{ type: "scheduled_messages", op: "remove", scheduled_message_id: id }, expect.objectContaining({ type: "message", message: expect.objectContaining({ id: message.id }), flags: ["read"] })]));
    const readerEvents = strip(await pendingOf(org.member2, readerQueue, ["scheduled_messages", "message"]));
    expect(readerEvents[0]).toMatchObject({ type: "message", message: { id: message.id, content }, flags: ["mentioned"] });
    expect(readerEvents.some((event) => event.type === "scheduled_messages")).toBe(false);
  });

  test("a direct message goes to its conversation, unread by a sender who asked so", async () => {
    const content = `Direct later ${crypto.randomUUID()}`;
    const id = await schedule(org.member, { type: "direct", to: JSON.stringify([org.member2.id]), content, scheduled_delivery_timestamp: nowSeconds() + 1, read_by_sender: false });
    const [message] = await until("delivery", () => messagesWith(content)[0] && messagesWith(content));
    expect(rowOf(id).delivered_message_id).toBe(message.id);
    const history = ok(await org.member2.api.get("/messages", { anchor: message.id, num_before: 0, num_after: 0, narrow: JSON.stringify([{ operator: "dm", operand: [org.member.id] }]) })).messages;
    expect(history.map((each: { id: number }) => each.id)).toEqual([message.id]);
    const own = ok(await org.member.api.get("/messages", { anchor: message.id, num_before: 0, num_after: 0 })).messages;
    expect(own[0].id).toBe(message.id);
    expect(own[0].flags).not.toContain("read");
  });

  test("an edited time is honoured, and a cancelled message is never sent", async () => {
    const moved = `Moved ${crypto.randomUUID()}`;
    const cancelled = `Cancelled ${crypto.randomUUID()}`;
    const movedId = await schedule(org.member, { type: "channel", to: channel, topic: "t", content: moved, scheduled_delivery_timestamp: nowSeconds() + 2 });
    const cancelledId = await schedule(org.member, { type: "channel", to: channel, topic: "t", content: cancelled, scheduled_delivery_timestamp: nowSeconds() + 2 });
    ok(await org.member.api.patch(`/scheduled_messages/${movedId}`, { scheduled_delivery_timestamp: nowSeconds() + 3600 }));
    ok(await org.member.api.delete(`/scheduled_messages/${cancelledId}`));
    await Bun.sleep(3500);
    expect(messagesWith(moved)).toEqual([]);
    expect(messagesWith(cancelled)).toEqual([]);
    expect(rowOf(movedId)).toMatchObject({ delivered: 0, failed: 0 });
  });
});

describe("failure", () => {
  test("a channel archived before the time: recorded as failed, the sender told by an update event and the notification bot; an edit with a new time retries", async () => {
    const archived = await createChannel(org, org.owner, { principals: JSON.stringify([org.owner.id, org.member.id]) });
    const content = `Never posted ${crypto.randomUUID()}`;
    const at = nowSeconds() + 2;
    const id = await schedule(org.member, { type: "channel", to: archived, topic: "doomed", content, scheduled_delivery_timestamp: at });
    ok(await org.owner.api.delete(`/streams/${archived}`));
    const queue = await queueOf(org.member);
    const failed = await until("failure", () => rowOf(id).failed === 1 && rowOf(id));
    expect(failed).toMatchObject({ delivered: 0, delivered_message_id: null });
    expect(failed.failure_message).toContain("archived");
    expect(messagesWith(content)).toEqual([]);

    const listed = (ok(await org.member.api.get("/scheduled_messages")).scheduled_messages as Array<Record<string, unknown>>).find((each) => each.scheduled_message_id === id);
    expect(listed).toMatchObject({ failed: true, content, scheduled_delivery_timestamp: at });
    const events = strip(await until("events", async () => {
      const got = await pendingOf(org.member, queue, ["scheduled_messages", "message"]);
      return got.length >= 2 && got;
    }));
    expect(events[0]).toEqual({ type: "scheduled_messages", op: "update", scheduled_message: listed });
    expect(events[1]).toMatchObject({ type: "message", message: { type: "private", sender_email: expect.stringContaining("notification-bot") } });
    const notice = queryServer<{ content: string }>(org.server, "SELECT content FROM messages WHERE id = ?", events[1].message.id)[0].content;
    expect(notice).toContain("was not sent because of the following error:");
    expect(notice).toContain(`> ${failed.failure_message}`);
    expect(notice).toContain("[View scheduled messages](#scheduled)");

    // A failed message is edited only with a new time, which clears the failure.
    const refused = await org.member.api.patch(`/scheduled_messages/${id}`, { content: "again" });
    expect(refused.body).toMatchObject({ result: "error", code: "BAD_REQUEST", msg: "Scheduled delivery time must be in the future." });
    ok(await org.member.api.patch(`/scheduled_messages/${id}`, { to: String(channel), scheduled_delivery_timestamp: nowSeconds() + 1 }));
    expect(rowOf(id)).toMatchObject({ failed: 0, failure_message: null });
    await until("retried delivery", () => messagesWith(content).length === 1);
    expect(rowOf(id)).toMatchObject({ delivered: 1, failed: 0 });
  });

  test("a sender deactivated before the time: recorded as failed, no message and no notice", async () => {
    const leaver = await createPerson(org.owner, org.anon, `Leaving ${Math.random().toString(36).slice(2, 7)}`);
    const content = `From a leaver ${crypto.randomUUID()}`;
    const id = await schedule(leaver, { type: "direct", to: JSON.stringify([org.member2.id]), content, scheduled_delivery_timestamp: nowSeconds() + 2 });
    const before = queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM messages")[0].n;
    ok(await org.owner.api.delete(`/users/${leaver.id}`));
    const failed = await until("failure", () => rowOf(id).failed === 1 && rowOf(id));
    expect(failed.failure_message).toBe("Account is deactivated");
    await Bun.sleep(300);
    expect(messagesWith(content)).toEqual([]);
    expect(queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM messages WHERE id > 0")[0].n).toBe(before);
  });

  test("a sender no longer allowed to post (unsubscribed from a private channel): failed with the send's reason", async () => {
    const secret = await createChannel(org, org.owner, { invite_only: true, principals: JSON.stringify([org.owner.id, org.member.id]) });
    const name = ok(await org.owner.api.get(`/streams/${secret}`)).stream.name;
    const content = `Secret later ${crypto.randomUUID()}`;
    const id = await schedule(org.member, { type: "channel", to: secret, topic: "t", content, scheduled_delivery_timestamp: nowSeconds() + 2 });
    ok(await org.owner.api.delete("/users/me/subscriptions", { subscriptions: JSON.stringify([name]), principals: JSON.stringify([org.member.id]) }));
    const failed = await until("failure", () => rowOf(id).failed === 1 && rowOf(id));
    expect(failed.failure_message).toBe(`Channel with ID '${secret}' does not exist`);
    expect(messagesWith(content)).toEqual([]);
  });
});

describe("exactly once across crashes", () => {
  const reconnect = () => {
    org.anon = new ApiClient(org.server.url);
    for (const role of ["owner", "admin", "moderator", "member", "member2", "guest", "bot"] as const) org[role] = { ...org[role], api: org.anon.as(org[role].email, org[role].apiKey) };
  };

  test("killed (-9) before the time and started after it: each message goes out once, at start", async () => {
    const tag = crypto.randomUUID();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await schedule(org.member, { type: "channel", to: channel, topic: "crash", content: `${tag} ${i}`, scheduled_delivery_timestamp: nowSeconds() + 2 }));
    await org.server.stop("SIGKILL");
    await Bun.sleep(3000);
    await org.server.restart();
    reconnect();
    await until("delivery at start", () => ids.every((id) => rowOf(id).delivered === 1), 3000);
    for (let i = 0; i < 3; i++) expect(messagesWith(`${tag} ${i}`)).toHaveLength(1);
    // Another restart sends nothing again.
    await org.server.restart("SIGKILL");
    reconnect();
    await Bun.sleep(1500);
    for (let i = 0; i < 3; i++) expect(messagesWith(`${tag} ${i}`)).toHaveLength(1);
  }, 30_000);

  test("killed (-9) at moments around delivery: never lost, never doubled", async () => {
    for (const delayMs of [0, 5, 20, 60]) {
      const tag = crypto.randomUUID();
      const due = nowSeconds() + 2;
      const ids: number[] = [];
      for (let i = 0; i < 20; i++) ids.push(await schedule(org.member, { type: "channel", to: channel, topic: "crash", content: `${tag} ${i}`, scheduled_delivery_timestamp: due }));
      // The job fires at the start of the due second; kill it just then.
      await Bun.sleep(due * 1000 - Date.now() + delayMs);
      await org.server.stop("SIGKILL");
      await org.server.restart();
      reconnect();
      await until("all delivered", () => ids.every((id) => rowOf(id).delivered === 1), 5000);
      for (let i = 0; i < 20; i++) expect(messagesWith(`${tag} ${i}`).map((message) => message.id)).toEqual([rowOf(ids[i]).delivered_message_id]);
    }
  }, 60_000);
});
