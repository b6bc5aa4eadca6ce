import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, uniqueName } from "../helpers/channels";
import { ok, type Org, type Person, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk, setUserSetting } from "../helpers/sending";
import { SEED_TIMEOUT_MS, type Event, type State, pending, register } from "./support";

/** The message and user_topic events of sending: who gets them, and in what shape (spec 2.3, 6). */

let org: Org;
let pub: { id: number; name: string };
let priv: { id: number; name: string };

beforeAll(async () => {
  org = await seedOrg();
  const pubName = uniqueName("events");
  pub = { id: await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.guest.id] }, pubName), name: pubName };
  const privName = uniqueName("private");
  priv = { id: await createChannel(org, org.member, { invite_only: true, principals: [org.member.id, org.admin.id] }, privName), name: privName };
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const MESSAGE_SECTIONS = ["message", "recent_private_conversations", "user_topic"];

/** A queue of `person`'s that receives only message events, registered with these parameters. */
async function queue(person: Person, params: Record<string, unknown> = {}): Promise<string> {
  return (await register(person, { event_types: ["message"], fetch_event_types: MESSAGE_SECTIONS, ...params })).queue_id;
}

async function messagesIn(person: Person, queueId: string): Promise<Event[]> {
  return (await pending(person, queueId)).filter((event) => event.type === "message");
}

/** The one message event of `messageId` in a queue (fails if there is none or more than one). */
async function eventOf(person: Person, queueId: string, messageId: number): Promise<Event> {
  const found = (await messagesIn(person, queueId)).filter((event) => event.message.id === messageId);
  expect(found).toHaveLength(1);
  return found[0];
}

const MESSAGE_FIELDS = [
  "id", "type", "sender_id", "sender_email", "sender_full_name", "sender_realm_str", "avatar_url", "content", "content_type",
  "recipient_id", "display_recipient", "subject", "topic_links", "timestamp", "client", "is_me_message", "reactions", "submessages",
];

describe("a channel message", () => {
  test("has every field of a message, shaped by apply_markdown, client_gravatar and empty_topic_name", async () => {
    const html = await queue(org.member2, { apply_markdown: true, client_gravatar: false, client_capabilities: { empty_topic_name: true } });
    const markdown = await queue(org.member2, { apply_markdown: false, client_gravatar: true });
    const { id } = await sendOk(org.member, channelMessage(pub.name, "", "**bold** @**Max Member**", { client: "website" }));

    const rich = await eventOf(org.member2, html, id);
    expect(Object.keys(rich.message).sort()).toEqual([...MESSAGE_FIELDS, "stream_id"].sort());
    expect(rich).toMatchObject({ type: "message", flags: ["mentioned"] });
    expect(Object.keys(rich).sort()).toEqual(["flags", "id", "message", "type"]);
    expect(rich.message).toMatchObject({
      id,
      type: "stream",
      sender_id: org.member.id,
      sender_email: org.member.email,
      sender_full_name: "Mel Member",
      display_recipient: pub.name,
      stream_id: pub.id,
      subject: "",
      content_type: "text/html",
      client: "website",
      is_me_message: false,
      reactions: [],
      submessages: [],
      topic_links: [],
    });
    expect(rich.message.content).toContain("<strong>bold</strong>");
    expect(rich.message.content).toContain(`data-user-id="${org.member2.id}"`);
    expect(rich.message.avatar_url).toStartWith("https://secure.gravatar.com/avatar/");
    expect(Number.isInteger(rich.message.timestamp)).toBe(true);
    // The event carries the message exactly as history will serve it.
    const history = ok(await org.member2.api.get("/messages", { anchor: id, num_before: 0, num_after: 0, apply_markdown: true, client_gravatar: false, allow_empty_topic_name: true }));
    const { flags: storedFlags, ...stored } = history.messages[0];
    expect(rich.message).toEqual(stored);
    expect(storedFlags).toEqual(["mentioned"]);

    const plain = await eventOf(org.member2, markdown, id);
    expect(plain.message).toMatchObject({ content: "**bold** @**Max Member**", content_type: "text/x-markdown", subject: "general chat", avatar_url: null });
    expect(plain.message.rendered_content).toBeUndefined();
  });

  test("goes to subscribers and the sender, each with their own flags, and to no one else", async () => {
    const queues = new Map<Person, string>();
    for (const person of [org.member, org.member2, org.guest, org.admin, org.moderator, org.owner]) queues.set(person, await queue(person));
    const { id } = await sendOk(org.member, channelMessage(pub.name, "who hears", "hello", { read_by_sender: true }));
    expect((await eventOf(org.member, queues.get(org.member)!, id)).flags).toEqual(["read"]);
    expect((await eventOf(org.member2, queues.get(org.member2)!, id)).flags).toEqual([]);
    expect((await eventOf(org.guest, queues.get(org.guest)!, id)).flags).toEqual([]);
    for (const outsider of [org.admin, org.moderator, org.owner]) expect(await messagesIn(outsider, queues.get(outsider)!)).toEqual([]);
  });

  test("a sender who is not subscribed still gets their own message", async () => {
    const own = await queue(org.moderator);
    const { id } = await sendOk(org.moderator, channelMessage(pub.name, "drive-by", "hi"));
    expect((await eventOf(org.moderator, own, id)).message.sender_id).toBe(org.moderator.id);
  });

  test("all_public_streams: public channel messages reach it with no flags; private ones do not", async () => {
    const watcher = await queue(org.owner, { all_public_streams: true });
    const open = await sendOk(org.member, channelMessage(pub.name, "watched", "public"));
    const closed = await sendOk(org.member, channelMessage(priv.name, "watched", "private"));
    const events = await messagesIn(org.owner, watcher);
    expect(events.map((event) => event.message.id)).toEqual([open.id]);
    expect(events[0].flags).toEqual([]);
    expect(closed.id).toBeGreaterThan(open.id);
  });

  test("private channel messages reach only subscribers", async () => {
    const queues = new Map<Person, string>();
    for (const person of [org.member, org.admin, org.member2, org.owner]) queues.set(person, await queue(person));
    const { id } = await sendOk(org.admin, channelMessage(priv.id, "secret", "for subscribers"));
    await eventOf(org.member, queues.get(org.member)!, id);
    await eventOf(org.admin, queues.get(org.admin)!, id);
    expect(await messagesIn(org.member2, queues.get(org.member2)!)).toEqual([]);
    expect(await messagesIn(org.owner, queues.get(org.owner)!)).toEqual([]);
  });
});

describe("local echo", () => {
  test("local_id goes only to the sender's queue named by queue_id", async () => {
    const first = await queue(org.member);
    const second = await queue(org.member);
    const other = await queue(org.member2);
    const { id } = await sendOk(org.member, channelMessage(pub.name, "echo", "hi", { queue_id: first, local_id: "17.01" }));
    expect((await eventOf(org.member, first, id)).local_id).toBe("17.01");
    expect((await eventOf(org.member, second, id)).local_id).toBeUndefined();
    expect((await eventOf(org.member2, other, id)).local_id).toBeUndefined();
  });

  test("naming someone else's queue echoes nothing to it", async () => {
    const theirs = await queue(org.member2);
    const { id } = await sendOk(org.member, channelMessage(pub.name, "echo", "hi", { queue_id: theirs, local_id: "1" }));
    expect((await eventOf(org.member2, theirs, id)).local_id).toBeUndefined();
  });

  test("queue_id without local_id is refused", async () => {
    const mine = await queue(org.member);
    const response = await org.member.api.post("/messages", channelMessage(pub.name, "echo", "hi", { queue_id: mine }));
    expect(response.body).toMatchObject({ result: "error", code: "BAD_REQUEST" });
  });
});

describe("a direct message", () => {
  test("reaches exactly its participants, with the participants as display_recipient and no topic", async () => {
    const queues = new Map<Person, string>();
    for (const person of [org.member, org.member2, org.admin, org.guest]) queues.set(person, await queue(person));
    const { id } = await sendOk(org.member, directMessage([org.member2.id, org.admin.id], "group chat"));
    const event = await eventOf(org.member2, queues.get(org.member2)!, id);
    expect(event.message.type).toBe("private");
    expect(event.message.stream_id).toBeUndefined();
    // Without empty_topic_name a DM's subject is still "": it has no topic at all.
    expect(event.message.subject).toBe("");
    const expected = [org.member, org.member2, org.admin]
      .map((person) => ({ id: person.id, email: person.email, full_name: expect.any(String), is_mirror_dummy: false }))
      .sort((a, b) => a.id - b.id);
    expect(event.message.display_recipient).toEqual(expected);
    await eventOf(org.admin, queues.get(org.admin)!, id);
    await eventOf(org.member, queues.get(org.member)!, id);
    expect(await messagesIn(org.guest, queues.get(org.guest)!)).toEqual([]);
  });
});

describe("a sender whose e-mail address is not public", () => {
  test("recipients who may not see it get the stand-in address and a real avatar URL", async () => {
    const name = uniqueName("hidden-email");
    await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.admin.id] }, name);
    setUserSetting(org.server, org.member.id, "email_address_visibility", 3);
    try {
      const memberQueue = await queue(org.member2, { client_gravatar: true });
      const adminQueue = await queue(org.admin, { client_gravatar: true });
      const adminWatcher = await queue(org.admin, { client_gravatar: true, all_public_streams: true });
      const outsider = await queue(org.moderator, { client_gravatar: true, all_public_streams: true });
      const { id } = await sendOk(org.member, channelMessage(name, "privacy", "hi"));

      const hidden = await eventOf(org.member2, memberQueue, id);
      expect(hidden.message.sender_email).toMatch(new RegExp(`^user${org.member.id}@`));
      expect(hidden.message.avatar_url).toStartWith("https://secure.gravatar.com/avatar/");
      const seen = await eventOf(org.admin, adminQueue, id);
      expect(seen.message).toMatchObject({ sender_email: org.member.email, avatar_url: null });
      // A recipient's all_public_streams queue gets the recipient's copy, once.
      expect((await eventOf(org.admin, adminWatcher, id)).message.sender_email).toBe(org.member.email);
      expect((await eventOf(org.moderator, outsider, id)).message.sender_email).toMatch(/^user\d+@/);
      expect(JSON.stringify(hidden)).not.toContain("gravatar_computable");
    } finally {
      setUserSetting(org.server, org.member.id, "email_address_visibility", 1);
    }
  });
});

describe("user_topic", () => {
  test("the first message in a topic follows it for its sender, who alone is told", async () => {
    const senderQueue = (await register(org.member2, { event_types: ["user_topic"] })).queue_id;
    const otherQueue = (await register(org.member, { event_types: ["user_topic"] })).queue_id;
    const topic = uniqueName("fresh topic");
    const first = await sendOk(org.member2, channelMessage(pub.name, topic, "I start this"));
    expect(first.automatic_new_visibility_policy).toBe(3);
    const events = await pending(org.member2, senderQueue);
    expect(events).toEqual([{ id: expect.any(Number), type: "user_topic", stream_id: pub.id, topic_name: topic, visibility_policy: 3, last_updated: expect.any(Number) }]);
    expect(await pending(org.member, otherQueue)).toEqual([]);

    const second = await sendOk(org.member2, channelMessage(pub.name, topic.toUpperCase(), "again"));
    expect(second.automatic_new_visibility_policy).toBeUndefined();
    expect(await pending(org.member2, senderQueue, events[0].id)).toEqual([]);
  });

  test("the empty topic's name follows empty_topic_name", async () => {
    const quiet = await createChannel(org, org.member, { principals: [org.member.id, org.guest.id] });
    const modern = (await register(org.guest, { event_types: ["user_topic"], client_capabilities: { empty_topic_name: true } })).queue_id;
    const legacy = (await register(org.guest, { event_types: ["user_topic"] })).queue_id;
    await sendOk(org.guest, channelMessage(quiet, "(no topic)", "in the empty topic"));
    expect((await pending(org.guest, modern))[0].topic_name).toBe("");
    expect((await pending(org.guest, legacy))[0].topic_name).toBe("general chat");
  });
});

describe("snapshot + events = fresh snapshot", () => {
  const comparable = (state: State) => ({ max_message_id: state.max_message_id, recent_private_conversations: state.recent_private_conversations, user_topics: state.user_topics });

  function applyMessageEvents(state: State, events: Event[], selfId: number): State {
    const next = structuredClone(state);
    for (const event of events) {
      if (event.type === "message") {
        next.max_message_id = Math.max(next.max_message_id, event.message.id);
        if (event.message.type !== "private") continue;
        const userIds = event.message.display_recipient.map((user: State) => user.id).filter((id: number) => id !== selfId).sort((a: number, b: number) => a - b);
        const others = next.recent_private_conversations.filter((each: State) => JSON.stringify(each.user_ids) !== JSON.stringify(userIds));
        next.recent_private_conversations = [{ max_message_id: event.message.id, user_ids: userIds }, ...others].sort((a, b) => b.max_message_id - a.max_message_id);
      } else if (event.type === "user_topic") {
        const { id: _id, type: _type, ...row } = event;
        const others = next.user_topics.filter((each: State) => !(each.stream_id === row.stream_id && each.topic_name.toLowerCase() === row.topic_name.toLowerCase()));
        next.user_topics = row.visibility_policy === 0 ? others : [...others, row];
      }
    }
    return next;
  }

  const sortTopics = (state: State) => ({ ...state, user_topics: [...state.user_topics].sort((a, b) => a.stream_id - b.stream_id || a.topic_name.localeCompare(b.topic_name)) });

  test("max_message_id, recent_private_conversations and user_topics follow message and user_topic events", async () => {
    const params = { fetch_event_types: MESSAGE_SECTIONS, client_capabilities: { empty_topic_name: true } };
    const before = await register(org.member2, params);
    await sendOk(org.member2, directMessage([org.member2.id], "to myself"));
    await sendOk(org.member, directMessage([org.member2.id], "to you"));
    await sendOk(org.member2, directMessage([org.member.id, org.admin.id], "to a group"));
    await sendOk(org.member2, channelMessage(pub.name, uniqueName("snapshot topic"), "new topic"));
    await sendOk(org.member, directMessage([org.member2.id], "to you again"));
    await sendOk(org.member, channelMessage(priv.name, "not for member2", "x"));
    const events = await pending(org.member2, before.queue_id);
    const replayed = applyMessageEvents(before, events, org.member2.id);
    const fresh = await register(org.member2, params);
    expect(sortTopics(comparable(replayed))).toEqual(sortTopics(comparable(fresh)));
    expect(fresh.recent_private_conversations[0].user_ids).toEqual([org.member.id]);
    expect(fresh.recent_private_conversations.some((each: State) => each.user_ids.length === 0)).toBe(true);
  });
});
