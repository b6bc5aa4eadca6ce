import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, uniqueName } from "../helpers/channels";
import { ok, type Org, type Person, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";
import { type Event, pending, type State } from "./support";

/**
 * update_message_flags events: their shape, who gets them (only the user whose flags
 * changed), and that applying them to unread_msgs gives what a fresh register returns.
 */

let org: Org;
let channel: string;
let channelId: number;

const SECTIONS = ["message", "update_message_flags", "starred_messages"];

async function registerQueue(person: Person, capabilities: Record<string, boolean> = { empty_topic_name: true }) {
  return ok(await person.api.post("/register", { fetch_event_types: SECTIONS, client_capabilities: capabilities }));
}
async function flagEvents(person: Person, queueId: string): Promise<Event[]> {
  return (await pending(person, queueId)).filter((event) => event.type === "update_message_flags");
}
const setFlag = (person: Person, messages: number[], op: string, flag: string) => person.api.post("/messages/flags", { messages, op, flag });

/** What a client does with message and update_message_flags events to its unread_msgs. */
function applyUnread(state: State, events: Event[], userId: number): State {
  const unread = structuredClone(state.unread_msgs);
  const drop = (ids: number[]) => {
    for (const list of [unread.streams, unread.pms, unread.huddles]) {
      for (const entry of list) entry.unread_message_ids = entry.unread_message_ids.filter((id: number) => !ids.includes(id));
    }
    unread.streams = unread.streams.filter((entry: State) => entry.unread_message_ids.length > 0);
    unread.pms = unread.pms.filter((entry: State) => entry.unread_message_ids.length > 0);
    unread.huddles = unread.huddles.filter((entry: State) => entry.unread_message_ids.length > 0);
    unread.mentions = unread.mentions.filter((id: number) => !ids.includes(id));
  };
  const add = (id: number, where: State) => {
    if (where.type === "stream") {
      let entry = unread.streams.find((e: State) => e.stream_id === where.stream_id && e.topic === where.topic);
      if (!entry) unread.streams.push((entry = { stream_id: where.stream_id, topic: where.topic, unread_message_ids: [] }));
      entry.unread_message_ids = [...entry.unread_message_ids, id].sort((a, b) => a - b);
    } else if (where.user_ids.length <= 1) {
      const other = where.user_ids[0] ?? userId;
      let entry = unread.pms.find((e: State) => e.other_user_id === other);
      if (!entry) unread.pms.push((entry = { other_user_id: other, sender_id: other, unread_message_ids: [] }));
      entry.unread_message_ids = [...entry.unread_message_ids, id].sort((a, b) => a - b);
    }
    if (where.mentioned) unread.mentions = [...unread.mentions, id].sort((a: number, b: number) => a - b);
  };
  for (const event of events) {
    if (event.type === "message" && !event.flags.includes("read")) {
      const message = event.message;
      const where = message.type === "stream" ? { type: "stream", stream_id: message.stream_id, topic: message.subject } : { type: "private", user_ids: message.display_recipient.map((u: State) => u.id).filter((id: number) => id !== userId) };
      add(message.id, { ...where, mentioned: event.flags.includes("mentioned") });
    }
    if (event.type !== "update_message_flags" || event.flag !== "read") continue;
    if (event.op === "add") drop(event.messages);
    else for (const id of event.messages) add(id, event.message_details[id]);
  }
  unread.streams.sort((a: State, b: State) => a.stream_id - b.stream_id || (a.topic < b.topic ? -1 : 1));
  unread.pms.sort((a: State, b: State) => a.other_user_id - b.other_user_id);
  const count = [...unread.streams, ...unread.pms, ...unread.huddles].reduce((sum: number, entry: State) => sum + entry.unread_message_ids.length, 0);
  return { ...unread, count };
}

beforeAll(async () => {
  org = await seedOrg();
  channel = uniqueName("eventful");
  channelId = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, channel);
  ok(await org.member2.api.post("/mark_all_as_read", {}));
}, 60_000);
afterAll(() => org.server.dispose());

describe("update_message_flags", () => {
  test("starring: an add event to the user's queues only, and nothing when nothing changed", async () => {
    const { id } = await sendOk(org.member, channelMessage(channel, "t", "star me"));
    const mine = await registerQueue(org.member2);
    const theirs = await registerQueue(org.member);
    ok(await setFlag(org.member2, [id], "add", "starred"));
    expect(await flagEvents(org.member2, mine.queue_id)).toMatchObject([{ type: "update_message_flags", op: "add", operation: "add", flag: "starred", messages: [id], all: false }]);
    expect(await flagEvents(org.member, theirs.queue_id)).toEqual([]);
    ok(await setFlag(org.member2, [id], "add", "starred"));
    expect(await flagEvents(org.member2, mine.queue_id)).toHaveLength(1);
    ok(await setFlag(org.member2, [id], "remove", "starred"));
    const events = await flagEvents(org.member2, mine.queue_id);
    expect(events[1]).toMatchObject({ op: "remove", operation: "remove", flag: "starred", messages: [id], all: false });
    expect(events[1]).not.toHaveProperty("message_details");
  });

  test("marking unread carries message_details for channel and direct messages", async () => {
    const { id: channelMsg } = await sendOk(org.member, channelMessage(channel, "details", "hi @**Max Member**"));
    const { id: dm } = await sendOk(org.member, directMessage([org.member2.id], "a dm"));
    ok(await setFlag(org.member2, [channelMsg, dm], "add", "read"));
    const queue = await registerQueue(org.member2);
    ok(await setFlag(org.member2, [channelMsg, dm], "remove", "read"));
    const [event] = await flagEvents(org.member2, queue.queue_id);
    expect(event).toMatchObject({ op: "remove", flag: "read", messages: [channelMsg, dm], all: false });
    expect(event.message_details).toEqual({
      [channelMsg]: { type: "stream", stream_id: channelId, topic: "details", mentioned: true },
      [dm]: { type: "private", user_ids: [org.member.id] },
    });
  });

  test("the empty topic in message_details follows the client's capability", async () => {
    const { id } = await sendOk(org.member, channelMessage(channel, "", "no topic"));
    ok(await setFlag(org.member2, [id], "add", "read"));
    const modern = await registerQueue(org.member2, { empty_topic_name: true });
    const legacy = await registerQueue(org.member2, {});
    ok(await setFlag(org.member2, [id], "remove", "read"));
    expect((await flagEvents(org.member2, modern.queue_id))[0].message_details[id].topic).toBe("");
    expect((await flagEvents(org.member2, legacy.queue_id))[0].message_details[id].topic).toBe("general chat");
  });

  test("mark_all, mark_stream and leaving a channel send add events listing what was unread", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const { id: a } = await sendOk(org.member, channelMessage(channel, "t", "one"));
    const { id: b } = await sendOk(org.member, directMessage([org.member2.id], "two"));
    let queue = await registerQueue(org.member2);
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    expect(await flagEvents(org.member2, queue.queue_id)).toMatchObject([{ op: "add", flag: "read", messages: [a, b], all: false }]);

    const { id: c } = await sendOk(org.member, channelMessage(channel, "t", "three"));
    queue = await registerQueue(org.member2);
    ok(await org.member2.api.post("/mark_stream_as_read", { stream_id: channelId }));
    expect(await flagEvents(org.member2, queue.queue_id)).toMatchObject([{ op: "add", flag: "read", messages: [c] }]);

    const left = uniqueName("leaving");
    await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, left);
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const { id: d } = await sendOk(org.member, channelMessage(left, "t", "four"));
    queue = await registerQueue(org.member2);
    const other = await registerQueue(org.member);
    ok(await org.member2.api.delete("/users/me/subscriptions", { subscriptions: [left] }));
    expect(await flagEvents(org.member2, queue.queue_id)).toMatchObject([{ op: "add", flag: "read", messages: [d] }]);
    expect(await flagEvents(org.member, other.queue_id)).toEqual([]);
  });

  test("events applied to the unread_msgs snapshot give a fresh snapshot", async () => {
    ok(await org.member2.api.post("/mark_all_as_read", {}));
    const before = await registerQueue(org.member2);
    const ids: number[] = [];
    ids.push((await sendOk(org.member, channelMessage(channel, "replay", "r1"))).id);
    ids.push((await sendOk(org.member, channelMessage(channel, "replay", "r2 @**Max Member**"))).id);
    ids.push((await sendOk(org.member, directMessage([org.member2.id], "r3"))).id);
    ok(await setFlag(org.member2, [ids[0]], "add", "read"));
    ok(await setFlag(org.member2, [ids[0]], "remove", "read"));
    ok(await setFlag(org.member2, [ids[2]], "add", "read"));
    ok(await org.member2.api.post("/mark_topic_as_read", { stream_id: channelId, topic_name: "replay" }));
    ok(await setFlag(org.member2, [ids[1], ids[2]], "remove", "read"));
    const events = await pending(org.member2, before.queue_id);
    const fresh = await registerQueue(org.member2);
    expect(applyUnread(before, events, org.member2.id)).toEqual(fresh.unread_msgs);
    expect(fresh.unread_msgs.mentions).toEqual([ids[1]]);
  });
});
