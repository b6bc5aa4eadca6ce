import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, subscribe, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";
import { type Event, pendingOf, register } from "./support";

/**
 * Events of PATCH /messages/{id}: update_message to everyone who had the message (and the
 * editor), each with their own flags; on moves between channels delete_message to those who
 * lose the messages; per-client topic names; and nothing to anyone else.
 */

let org: Org;

beforeAll(async () => {
  org = await seedOrg();
}, 60_000);
afterAll(() => org.server.dispose());

const channel = async (creator: Person, members: Person[]) => {
  const name = uniqueName("events");
  return { name, id: await createChannel(org, creator, { principals: members.map((person) => person.id) }, name) };
};
const post = async (sender: Person, to: string, topic: string, content = "original") => (await sendOk(sender, channelMessage(to, topic, content, { read_by_sender: true }))).id;
const edit = (person: Person, id: number, params: Record<string, unknown>) => person.api.patch(`/messages/${id}`, params);

type Queues = Map<Person, string>;
async function listen(people: Person[], params: Record<string, unknown> = {}): Promise<Queues> {
  const queues: Queues = new Map();
  for (const person of people) queues.set(person, (await register(person, { event_types: ["update_message", "delete_message", "stream"], ...params })).queue_id);
  return queues;
}
const received = (queues: Queues, person: Person, types = ["update_message"]): Promise<Event[]> => pendingOf(person, queues.get(person)!, types);
const withoutIds = (events: Event[]) => events.map(({ id: _, ...event }) => event);

describe("update_message", () => {
  test("a content edit: the reference's fields, each user's own flags; subscribers and editor only", async () => {
    const room = await channel(org.member, [org.member, org.member2, org.guest]);
    const id = await post(org.member, room.name, "greetings", "hello");
    const queues = await listen([org.member, org.member2, org.guest, org.admin, org.owner]);
    ok(await edit(org.member, id, { content: "hello @**Max Member**" }));
    const [event] = await received(queues, org.member2);
    expect(event).toEqual({
      id: expect.any(Number),
      type: "update_message",
      user_id: org.member.id,
      rendering_only: false,
      message_id: id,
      message_ids: [id],
      flags: ["mentioned"],
      edit_timestamp: expect.any(Number),
      stream_name: room.name,
      stream_id: room.id,
      orig_content: "hello",
      orig_rendered_content: "<p>hello</p>",
      content: "hello @**Max Member**",
      rendered_content: expect.stringContaining('class="user-mention"'),
      is_me_message: false,
    });
    expect(Math.abs(event.edit_timestamp - Date.now() / 1000)).toBeLessThan(5);
    expect((await received(queues, org.member))[0].flags).toEqual(["read"]);
    expect((await received(queues, org.guest))[0].flags).toEqual([]);
    for (const outsider of [org.admin, org.owner]) expect(await received(queues, outsider)).toEqual([]);
  });

  test("a topic move: propagate_mode, orig_subject, subject, topic_links and every moved ID", async () => {
    const room = await channel(org.member, [org.member, org.member2]);
    const ids = [await post(org.member, room.name, "old topic"), await post(org.member2, room.name, "old topic")];
    const queues = await listen([org.member2, org.admin]);
    ok(await edit(org.admin, ids[1], { topic: "see https://example.com/x", propagate_mode: "change_all", send_notification_to_new_thread: false }));
    expect(withoutIds(await received(queues, org.member2))).toEqual([
      {
        type: "update_message",
        user_id: org.admin.id,
        rendering_only: false,
        message_id: ids[1],
        message_ids: ids,
        flags: ["read"],
        edit_timestamp: expect.any(Number),
        stream_name: room.name,
        stream_id: room.id,
        propagate_mode: "change_all",
        orig_subject: "old topic",
        subject: "see https://example.com/x",
        topic_links: [{ text: "https://example.com/x", url: "https://example.com/x" }],
      },
    ]);
    // The administrator is not subscribed, but moved the messages: they hear of it too.
    expect(await received(queues, org.admin)).toHaveLength(1);
  });

  test("a move of more messages than one step takes: one event per step, oldest first, the chosen message in the last; one notice after it", async () => {
    const room = await channel(org.member, [org.member, org.member2]);
    const ids: number[] = [];
    // Two steps of 50 (actions/editMessage.ts MOVE_STEP) and a last one with the chosen message.
    for (let i = 0; i < 120; i++) ids.push(await post(org.member, room.name, "long topic", `message ${i}`));
    const chosen = ids[60];
    const queues = await listen([org.member2]);
    const messages = (await register(org.member2, { event_types: ["message"] })).queue_id;
    ok(await edit(org.admin, chosen, { topic: "moved on", propagate_mode: "change_all" }));
    const events = await received(queues, org.member2);
    const others = ids.filter((id) => id !== chosen);
    expect(events.map((event) => event.message_ids)).toEqual([others.slice(0, 50), others.slice(50, 100), [chosen, ...others.slice(100)]]);
    expect(events.map((event) => event.message_id)).toEqual([others[0], others[50], chosen]);
    for (const event of events) expect(event).toMatchObject({ propagate_mode: "change_all", orig_subject: "long topic", subject: "moved on" });
    // The notice counts the whole move, and comes once everything has moved.
    const notices = await pendingOf(org.member2, messages, ["message"]);
    expect(notices.map((event) => (event.message as { content: string }).content)).toEqual([expect.stringContaining("This topic was moved here")]);
    const topics = queryServer<{ topic: string; n: number }>(org.server, "SELECT topic, count(*) AS n FROM messages WHERE channel_id = ? AND topic IN ('long topic', 'moved on') GROUP BY topic", room.id);
    expect(topics).toEqual([{ topic: "moved on", n: 121 }]);
  });

  test("clients without empty_topic_name see the display name for the empty topic", async () => {
    const room = await channel(org.member, [org.member]);
    const id = await post(org.member, room.name, "named");
    const modern = (await register(org.member, { event_types: ["update_message"], client_capabilities: { empty_topic_name: true } })).queue_id;
    const legacy = (await register(org.member, { event_types: ["update_message"], client_capabilities: { empty_topic_name: false } })).queue_id;
    ok(await edit(org.member, id, { topic: "", send_notification_to_new_thread: false }));
    expect((await pendingOf(org.member, modern, ["update_message"]))[0]).toMatchObject({ orig_subject: "named", subject: "" });
    expect((await pendingOf(org.member, legacy, ["update_message"]))[0]).toMatchObject({ orig_subject: "named", subject: "general chat" });
    ok(await edit(org.member, id, { topic: "named again", send_notification_to_new_thread: false }));
    expect((await pendingOf(org.member, legacy, ["update_message"]))[1]).toMatchObject({ orig_subject: "general chat", subject: "named again" });
  });

  test("a direct message's edit goes to its participants only", async () => {
    const id = (await sendOk(org.member, directMessage([org.member2.id], "dm", { read_by_sender: true }))).id;
    const queues = await listen([org.member, org.member2, org.admin]);
    ok(await edit(org.member, id, { content: "dm edited" }));
    const [event] = await received(queues, org.member2);
    expect(event).toMatchObject({ message_id: id, content: "dm edited", flags: [] });
    expect(event.stream_id).toBeUndefined();
    expect(await received(queues, org.member)).toHaveLength(1);
    expect(await received(queues, org.admin)).toEqual([]);
  });

  test("a refused edit sends nothing", async () => {
    const room = await channel(org.member, [org.member, org.member2]);
    const id = await post(org.member, room.name, "quiet");
    const queues = await listen([org.member, org.member2]);
    expectError(await edit(org.member2, id, { content: "not mine" }), "BAD_REQUEST");
    for (const person of [org.member, org.member2]) expect(await received(queues, person, ["update_message", "delete_message", "stream"])).toEqual([]);
  });
});

describe("moves between channels", () => {
  test("keepers and gainers get update_message (gainers find them read); losers get delete_message, bulk or not", async () => {
    const to = await channel(org.member, [org.member, org.moderator]);
    const from = await channel(org.member, [org.member, org.member2, org.guest]);
    const ids = [await post(org.member, from.name, "moving"), await post(org.member, from.name, "moving")];
    // Joining now puts member2's read mark in the destination past the messages about to arrive.
    await subscribe(org.member, [to.name], { principals: [org.member2.id] });
    const queues = await listen([org.member, org.member2, org.moderator, org.admin], { client_capabilities: { bulk_message_deletion: true } });
    const guestQueue = (await register(org.guest, { event_types: ["update_message", "delete_message"], client_capabilities: { bulk_message_deletion: false } })).queue_id;
    ok(await edit(org.member, ids[0], { stream_id: to.id, topic: "arrived", propagate_mode: "change_all", send_notification_to_new_thread: false }));

    const update = {
      type: "update_message",
      user_id: org.member.id,
      message_id: ids[0],
      message_ids: ids,
      stream_id: from.id,
      stream_name: from.name,
      new_stream_id: to.id,
      propagate_mode: "change_all",
      orig_subject: "moving",
      subject: "arrived",
    };
    expect(await received(queues, org.member)).toEqual([expect.objectContaining({ ...update, flags: ["read"] })]);
    // member2 had them unread in the old channel, where they subscribed before they were sent:
    // still unread, although member2's mark in the new channel is past them.
    expect(await received(queues, org.member2)).toEqual([expect.objectContaining({ ...update, flags: [] })]);
    expect(await received(queues, org.moderator)).toEqual([expect.objectContaining({ ...update, flags: ["read"] })]);
    expect(await received(queues, org.admin, ["update_message", "delete_message"])).toEqual([]);
    const deletions = await pendingOf(org.guest, guestQueue, ["update_message", "delete_message"]);
    expect(deletions).toEqual(ids.map((id) => ({ id: expect.any(Number), type: "delete_message", message_id: id, message_type: "stream", stream_id: from.id, topic: "moving" })));
    expect(deletions.every((event, i) => i === 0 || event.id > deletions[i - 1].id)).toBe(true);
    for (const person of [org.member, org.member2, org.moderator]) expect(await received(queues, person, ["delete_message"])).toEqual([]);
  });

  test("moving a channel's first message out, into a younger channel: first_message_id of both, to those who know them", async () => {
    const from = await channel(org.member, [org.member]);
    const [{ first_message_id: creation }] = queryServer<{ first_message_id: number }>(org.server, "SELECT first_message_id FROM channels WHERE id = ?", from.id);
    const early = await post(org.member, from.name, "early");
    const to = await channel(org.member, [org.member]);
    const queues = await listen([org.member2, org.guest]);
    ok(await edit(org.member, creation, { stream_id: to.id, send_notification_to_new_thread: false }));
    const update = (channelId: number, name: string, value: number) => ({ type: "stream", op: "update", stream_id: channelId, name, property: "first_message_id", value });
    expect(withoutIds(await received(queues, org.member2, ["stream"]))).toEqual([update(from.id, from.name, early), update(to.id, to.name, creation)]);
    expect(await received(queues, org.guest, ["stream"])).toEqual([]);
  });
});
