import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, subscribe, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { pendingOf, register } from "../events/support";

/**
 * POST /streams/{id}/delete_topic (spec 4.11, 3): administrators only, newest first in batches
 * (here of 3), `complete` false when the time budget runs out, and the events it sends.
 */

let org: Org;
/** A second organization whose time budget is zero: every call deletes one batch. */
let hurried: Org;

beforeAll(async () => {
  [org, hurried] = await Promise.all([
    seedOrg({ env: { PARLEY_DELETE_TOPIC_BATCH_SIZE: "3" } }),
    seedOrg({ env: { PARLEY_DELETE_TOPIC_BATCH_SIZE: "2", PARLEY_DELETE_TOPIC_BUDGET_MS: "0" } }),
  ]);
}, 90_000);
afterAll(() => Promise.all([org.server.dispose(), hurried.server.dispose()]));

const topicIds = (within: Org, channelId: number, topicKey: string) =>
  queryServer<{ id: number }>(within.server, "SELECT id FROM messages WHERE channel_id = ? AND topic_key = ? ORDER BY id", channelId, topicKey).map((row) => row.id);

async function fill(sender: Person, channel: string, topic: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await sendOk(sender, channelMessage(channel, topic, `message ${i}`))).id);
  return ids;
}

const deleteTopic = (person: Person, channelId: number | string, params: Record<string, unknown>) => person.api.post(`/streams/${channelId}/delete_topic`, params);

describe("deleting a topic", () => {
  test("an administrator deletes every message of the topic, matched regardless of case; other topics stay", async () => {
    const name = uniqueName("topics");
    const channelId = await createChannel(org, org.member, {}, name);
    await fill(org.member, name, "Lunch Plans", 7);
    const kept = await fill(org.member, name, "dinner", 2);
    const body = ok(await deleteTopic(org.admin, channelId, { topic_name: "lunch plans" }));
    expect(body).toEqual({ result: "success", msg: "", complete: true });
    expect(topicIds(org, channelId, "lunch plans")).toEqual([]);
    expect(topicIds(org, channelId, "dinner")).toEqual(kept);
  });

  test("owners may too; a topic with no messages is already deleted", async () => {
    const name = uniqueName("owners");
    const channelId = await createChannel(org, org.member, {}, name);
    await fill(org.member, name, "owned", 2);
    expect(ok(await deleteTopic(org.owner, channelId, { topic_name: "owned" })).complete).toBe(true);
    expect(topicIds(org, channelId, "owned")).toEqual([]);
    expect(ok(await deleteTopic(org.owner, channelId, { topic_name: "never existed" })).complete).toBe(true);
  });

  test("everyone below administrator gets UNAUTHORIZED_PRINCIPAL and nothing is deleted", async () => {
    const name = uniqueName("refusals");
    const channelId = await createChannel(org, org.member, { principals: [org.member.id, org.moderator.id, org.guest.id, org.member2.id] }, name);
    const ids = await fill(org.member, name, "precious", 2);
    for (const person of [org.moderator, org.member, org.member2, org.guest, org.bot]) {
      const response = await deleteTopic(person, channelId, { topic_name: "precious" });
      expectError(response, "UNAUTHORIZED_PRINCIPAL");
      expect(response.body.msg).toBe("Must be an organization administrator");
    }
    expect(topicIds(org, channelId, "precious")).toEqual(ids);
  });

  test("the empty topic: by its display name, by (no topic), and by the empty string", async () => {
    const name = uniqueName("empty");
    const channelId = await createChannel(org, org.member, {}, name);
    for (const spelling of ["general chat", "(no topic)", ""]) {
      await fill(org.member, name, "", 2);
      expect(topicIds(org, channelId, "")).toHaveLength(2);
      expect(ok(await deleteTopic(org.admin, channelId, { topic_name: spelling })).complete).toBe(true);
      expect(topicIds(org, channelId, "")).toEqual([]);
    }
  });

  test("channels the administrator cannot read, unknown channels, bad input: errors, nothing deleted", async () => {
    const name = uniqueName("private");
    const channelId = await createChannel(org, org.member, { invite_only: true }, name);
    const ids = await fill(org.member, name, "hidden", 2);
    const refused = await deleteTopic(org.admin, channelId, { topic_name: "hidden" });
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toBe("Invalid channel ID");
    expectError(await deleteTopic(org.admin, 999_999, { topic_name: "hidden" }), "BAD_REQUEST");
    expectError(await deleteTopic(org.admin, "abc", { topic_name: "hidden" }), "BAD_REQUEST");
    expectError(await deleteTopic(org.admin, channelId, {}), "BAD_REQUEST");
    expectError(await deleteTopic(org.admin, channelId, { topic_name: "x".repeat(5000) }), "BAD_REQUEST");
    expect(topicIds(org, channelId, "hidden")).toEqual(ids);
  });

  test("in a channel with protected history, an administrator deletes only the messages they may read", async () => {
    const name = uniqueName("protected");
    const channelId = await createChannel(org, org.member, { invite_only: true, history_public_to_subscribers: false }, name);
    const before = await fill(org.member, name, "mixed", 2);
    await subscribe(org.member, [name], { principals: [org.admin.id] });
    await fill(org.member, name, "mixed", 4);
    expect(ok(await deleteTopic(org.admin, channelId, { topic_name: "mixed" })).complete).toBe(true);
    expect(topicIds(org, channelId, "mixed")).toEqual(before);
  });
});

describe("batches and the time budget", () => {
  test("out of time after one batch: complete false, the newest messages went first; repeating finishes", async () => {
    const name = uniqueName("long");
    const channelId = await createChannel(hurried, hurried.member, {}, name);
    const ids = await fill(hurried.member, name, "long topic", 5);
    const first = ok(await deleteTopic(hurried.admin, channelId, { topic_name: "long topic" }));
    expect(first).toEqual({ result: "success", msg: "", complete: false });
    expect(topicIds(hurried, channelId, "long topic")).toEqual(ids.slice(0, 3));
    const answers: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      const { complete } = ok(await deleteTopic(hurried.admin, channelId, { topic_name: "long topic" }));
      answers.push(complete);
      if (complete) break;
    }
    expect(answers).toEqual([false, true]);
    expect(topicIds(hurried, channelId, "long topic")).toEqual([]);
  });
});

describe("events", () => {
  test("one delete_message per batch, bulk or one per message by capability, to subscribers and the deleter only", async () => {
    const name = uniqueName("evented");
    const channelId = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, name);
    const ids = await fill(org.member, name, "Noise", 4);
    const bulk = (await register(org.member, { event_types: ["delete_message"], client_capabilities: { bulk_message_deletion: true } })).queue_id;
    const single = (await register(org.member2, { event_types: ["delete_message"], client_capabilities: { bulk_message_deletion: false } })).queue_id;
    const admin = (await register(org.admin, { event_types: ["delete_message"], client_capabilities: { bulk_message_deletion: true } })).queue_id;
    const outsider = (await register(org.guest, { event_types: ["delete_message"], client_capabilities: { bulk_message_deletion: true } })).queue_id;
    ok(await deleteTopic(org.admin, channelId, { topic_name: "noise" }));
    const common = { type: "delete_message", message_type: "stream", stream_id: channelId, topic: "Noise" };
    const batches = [ids.slice(1), ids.slice(0, 1)];
    const increasing = (events: Array<{ id: number }>) => events.every((event, i) => i === 0 || event.id > events[i - 1].id);
    const bulkEvents = await pendingOf(org.member, bulk, ["delete_message"]);
    expect(bulkEvents).toEqual(batches.map((batch) => ({ ...common, message_ids: batch, id: expect.any(Number) })));
    expect(increasing(bulkEvents)).toBe(true);
    expect(await pendingOf(org.admin, admin, ["delete_message"])).toHaveLength(2);
    const oneByOne = [ids[1], ids[2], ids[3], ids[0]];
    const singleEvents = await pendingOf(org.member2, single, ["delete_message"]);
    expect(singleEvents).toEqual(oneByOne.map((id) => ({ ...common, message_id: id, id: expect.any(Number) })));
    expect(increasing(singleEvents)).toBe(true);
    expect(await pendingOf(org.guest, outsider, ["delete_message"])).toEqual([]);
  });

  test("deleting the topic that held the channel's first message: a stream update with the new first_message_id", async () => {
    const name = uniqueName("oldest");
    const channelId = await createChannel(org, org.member, {}, name);
    const [created] = queryServer<{ id: number; topic: string }>(org.server, "SELECT id, topic FROM messages WHERE channel_id = ? ORDER BY id LIMIT 1", channelId);
    const later = await fill(org.member, name, "later", 1);
    const queue = (await register(org.member2, { event_types: ["stream"] })).queue_id;
    const outsider = (await register(org.guest, { event_types: ["stream"] })).queue_id;
    ok(await deleteTopic(org.admin, channelId, { topic_name: created.topic }));
    const events = await pendingOf(org.member2, queue, ["stream"]);
    expect(events).toEqual([{ type: "stream", op: "update", stream_id: channelId, name, property: "first_message_id", value: later[0], id: expect.any(Number) }]);
    expect(await pendingOf(org.guest, outsider, ["stream"])).toEqual([]);
    expect(queryServer(org.server, "SELECT first_message_id FROM channels WHERE id = ?", channelId)).toEqual([{ first_message_id: later[0] }]);
  });
});
