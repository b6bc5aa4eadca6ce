import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, subscribe, uniqueName } from "../helpers/channels";
import { expectError, ok, type Org, type Person, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";

/**
 * Who sees which messages in GET /messages, GET /messages/{id} and flag changes: history
 * visibility (history_public_to_subscribers), guests, non-subscribers, direct messages.
 */

let org: Org;

async function visibleIds(person: Person, narrow: unknown[] = [], extra: Record<string, unknown> = {}): Promise<number[]> {
  const body = ok(await person.api.get("/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow, ...extra }));
  return body.messages.map((message: { id: number }) => message.id);
}
const flagsOf = async (person: Person, id: number) => ok(await person.api.get(`/messages/${id}`)).message.flags as string[];
const unsubscribe = async (person: Person, name: string) => ok(await person.api.delete("/users/me/subscriptions", { subscriptions: [name] }));

async function expectHidden(person: Person, id: number) {
  const single = await person.api.get(`/messages/${id}`);
  expectError(single, "BAD_REQUEST");
  expect(single.body.msg).toBe("Invalid message(s)");
  const flags = await person.api.post("/messages/flags", { messages: [id], op: "add", flag: "starred" });
  expectError(flags, "BAD_REQUEST");
  expect(flags.body.msg).toBe("Invalid message(s)");
}

beforeAll(async () => {
  org = await seedOrg();
}, 60_000);
afterAll(() => org.server.dispose());

describe("a private channel with protected history", () => {
  let name: string;
  let before: number;
  let during: number;
  let after: number;

  beforeAll(async () => {
    name = uniqueName("secret");
    await createChannel(org, org.member, { invite_only: true, history_public_to_subscribers: false }, name);
    before = (await sendOk(org.member, channelMessage(name, "t", "before member2 joined"))).id;
    await subscribe(org.member, [name], { principals: [org.member2.id] });
    during = (await sendOk(org.member, channelMessage(name, "t", "while member2 is here"))).id;
  });

  test("a new subscriber sees only what was sent since they subscribed", async () => {
    expect(await visibleIds(org.member2, [{ operator: "channel", operand: name }, { operator: "topic", operand: "t" }])).toEqual([during]);
    await expectHidden(org.member2, before);
    expect(await flagsOf(org.member2, during)).toEqual([]);
  });

  test("the creator sees all of it", async () => {
    expect(await visibleIds(org.member, [{ operator: "channel", operand: name }, { operator: "topic", operand: "t" }])).toEqual([before, during]);
  });

  test("non-subscribers, administrators included, and guests see none of it, and cannot narrow to it", async () => {
    for (const person of [org.moderator, org.admin, org.guest]) {
      expect(await visibleIds(person)).not.toContain(during);
      await expectHidden(person, during);
      await expectHidden(person, before);
    }
    const narrowed = await org.guest.api.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "channel", operand: name }] });
    expectError(narrowed, "BAD_REQUEST");
    expect(narrowed.body.msg).toBe(`Invalid narrow operator: unknown channel ${name}`);
  });

  test("after leaving, one still sees what one received, and nothing sent later", async () => {
    await unsubscribe(org.member2, name);
    after = (await sendOk(org.member, channelMessage(name, "t", "after member2 left"))).id;
    expect(await visibleIds(org.member2, [{ operator: "channel", operand: name }])).toEqual([during]);
    expect(await visibleIds(org.member2)).toContain(during);
    expect(await flagsOf(org.member2, during)).toEqual(["read"]);
    await expectHidden(org.member2, after);
    await expectHidden(org.member2, before);
  });

  test("rejoining shows the new stretch but not the gap", async () => {
    await subscribe(org.member, [name], { principals: [org.member2.id] });
    const again = (await sendOk(org.member, channelMessage(name, "t", "member2 is back"))).id;
    expect(await visibleIds(org.member2, [{ operator: "channel", operand: name }])).toEqual([during, again]);
    await expectHidden(org.member2, after);
  });
});

describe("a private channel with shared history", () => {
  test("a new subscriber sees earlier messages as read and historical", async () => {
    const name = uniqueName("shared");
    await createChannel(org, org.member, { invite_only: true, history_public_to_subscribers: true }, name);
    const earlier = (await sendOk(org.member, channelMessage(name, "t", "earlier"))).id;
    await expectHidden(org.member2, earlier);
    await subscribe(org.member, [name], { principals: [org.member2.id] });
    const later = (await sendOk(org.member, channelMessage(name, "t", "later"))).id;
    expect(await visibleIds(org.member2, [{ operator: "channel", operand: name }, { operator: "topic", operand: "t" }])).toEqual([earlier, later]);
    expect(await flagsOf(org.member2, earlier)).toEqual(["read", "historical"]);
    expect(await flagsOf(org.member2, later)).toEqual([]);
  });
});

describe("a channel whose history becomes protected", () => {
  test("each subscriber keeps what they received, and no more", async () => {
    const name = uniqueName("turning");
    const channelId = await createChannel(org, org.member, { invite_only: true, history_public_to_subscribers: true }, name);
    const early = (await sendOk(org.member, channelMessage(name, "t", "early"))).id;
    await subscribe(org.member, [name], { principals: [org.member2.id] });
    const late = (await sendOk(org.member, channelMessage(name, "t", "late"))).id;
    const inTopic = [{ operator: "channel", operand: name }, { operator: "topic", operand: "t" }];
    expect(await visibleIds(org.member2, inTopic)).toEqual([early, late]);
    ok(await org.member.api.patch(`/streams/${channelId}`, { history_public_to_subscribers: false }));
    expect(await visibleIds(org.member2, inTopic)).toEqual([late]);
    expect(await visibleIds(org.member, inTopic)).toEqual([early, late]);
    await expectHidden(org.member2, early);
  });
});

describe("public channels", () => {
  let name: string;
  let id: number;

  beforeAll(async () => {
    name = uniqueName("open");
    await createChannel(org, org.member, {}, name);
    id = (await sendOk(org.member, channelMessage(name, "t", "hello all"))).id;
  });

  test("a member who is not subscribed reads the channel's history, as historical", async () => {
    expect(await visibleIds(org.member2, [{ operator: "channel", operand: name }, { operator: "topic", operand: "t" }])).toEqual([id]);
    expect(await flagsOf(org.member2, id)).toEqual(["read", "historical"]);
  });

  test("but it is not in their personal history (the combined feed)", async () => {
    expect(await visibleIds(org.member2)).not.toContain(id);
  });

  test("channels:public searches every public channel", async () => {
    expect(await visibleIds(org.member2, [{ operator: "channels", operand: "public" }])).toContain(id);
  });

  test("a guest who is not subscribed sees none of it, nor may narrow to a channel they cannot see", async () => {
    const narrowed = await org.guest.api.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "channel", operand: name }] });
    expectError(narrowed, "BAD_REQUEST");
    expect(await visibleIds(org.guest, [{ operator: "channels", operand: "public" }])).not.toContain(id);
    await expectHidden(org.guest, id);
  });

  test("a guest who is subscribed sees it", async () => {
    await subscribe(org.member, [name], { principals: [org.guest.id] });
    expect(await visibleIds(org.guest, [{ operator: "channel", operand: name }, { operator: "topic", operand: "t" }])).toEqual([id]);
  });

  test("starring a historical message puts it in one's history", async () => {
    ok(await org.moderator.api.post("/messages/flags", { messages: [id], op: "add", flag: "starred" }));
    expect(await visibleIds(org.moderator)).toContain(id);
    expect(await flagsOf(org.moderator, id)).toEqual(["read", "starred", "historical"]);
  });
});

describe("direct messages", () => {
  test("only their participants see them", async () => {
    const id = (await sendOk(org.member, directMessage([org.member2.id], "just us"))).id;
    expect(await visibleIds(org.member2)).toContain(id);
    expect(await visibleIds(org.member)).toContain(id);
    for (const person of [org.admin, org.owner, org.guest, org.moderator]) {
      expect(await visibleIds(person)).not.toContain(id);
      expect(await visibleIds(person, [{ operator: "is", operand: "dm" }])).not.toContain(id);
      await expectHidden(person, id);
    }
  });

  test("a dm narrow naming other people's conversation finds nothing", async () => {
    const id = (await sendOk(org.member, directMessage([org.member2.id], "still just us"))).id;
    expect(await visibleIds(org.admin, [{ operator: "dm", operand: [org.member.id, org.member2.id] }])).not.toContain(id);
    expect(await visibleIds(org.admin, [{ operator: "dm-including", operand: org.member.id }])).not.toContain(id);
  });
});
