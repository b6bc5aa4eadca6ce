import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createChannel, queryServer, uniqueName } from "../helpers/channels";
import { expectError, ok, type Org, type Person, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";
import { pending, SEED_TIMEOUT_MS } from "../events/support";

/**
 * Alert words (reference: get-alert-words, add-alert-words, remove-alert-words) and the
 * has_alert_word flag they give messages, on sending and on editing, in GET /messages, message
 * events and the is:alerted narrow.
 */

let org: Org;
let channel: string;

beforeAll(async () => {
  org = await seedOrg();
  channel = uniqueName("alerts");
  await createChannel(org, org.member, { principals: [org.member.id, org.member2.id, org.moderator.id] }, channel);
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const words = async (person: Person): Promise<string[]> => ok(await person.api.get("/users/me/alert_words")).alert_words;
const add = (person: Person, list: unknown) => person.api.post("/users/me/alert_words", { alert_words: list });
const remove = (person: Person, list: unknown) => person.api.delete("/users/me/alert_words", { alert_words: list });
const stored = () => queryServer<{ user_id: number; word: string }>(org.server, "SELECT user_id, word FROM alert_words ORDER BY user_id, id");
const flagsOf = async (person: Person, id: number): Promise<string[]> => ok(await person.api.get(`/messages/${id}`)).message.flags;

/** Clears everyone's words, so each test starts from none. */
async function clearAll() {
  for (const person of [org.owner, org.admin, org.moderator, org.member, org.member2, org.guest, org.bot]) {
    const list = await words(person);
    if (list.length > 0) ok(await remove(person, list));
  }
}

describe("GET, POST and DELETE /users/me/alert_words", () => {
  beforeEach(clearAll);

  test("the list starts empty; adding answers the whole list, in the order added", async () => {
    expect(ok(await org.member.api.get("/users/me/alert_words"))).toEqual({ result: "success", msg: "", alert_words: [] });
    expect(ok(await add(org.member, ["natural", "illustrious"]))).toEqual({ result: "success", msg: "", alert_words: ["natural", "illustrious"] });
    expect(ok(await add(org.member, ["foo", "bar"])).alert_words).toEqual(["natural", "illustrious", "foo", "bar"]);
    expect(await words(org.member)).toEqual(["natural", "illustrious", "foo", "bar"]);
  });

  test("words are trimmed, blanks dropped, and a word already there in any case is ignored, keeping the case first given", async () => {
    ok(await add(org.member, ["Deploy"]));
    expect(ok(await add(org.member, ["  big news  ", "", "   ", "deploy", "DEPLOY", "Ärger", "ärger"])).alert_words).toEqual(["Deploy", "big news", "Ärger"]);
  });

  test("removing is without regard to case; words not in the list are ignored; the answer is the whole list", async () => {
    ok(await add(org.member, ["Deploy", "big news", "Ärger"]));
    expect(ok(await remove(org.member, ["DEPLOY", "ärger", "never added"]))).toEqual({ result: "success", msg: "", alert_words: ["big news"] });
    expect(ok(await remove(org.member, ["nothing"])).alert_words).toEqual(["big news"]);
    expect(ok(await remove(org.member, [])).alert_words).toEqual(["big news"]);
    expect(await words(org.member)).toEqual(["big news"]);
  });

  test("each person has their own list, every role and bots included; nobody sees or removes another's", async () => {
    const people = [org.owner, org.admin, org.moderator, org.member2, org.guest, org.bot];
    for (const [index, person] of people.entries()) ok(await add(person, [`word${index}`, "shared"]));
    ok(await remove(org.member, ["word0", "shared"]));
    for (const [index, person] of people.entries()) expect(await words(person)).toEqual([`word${index}`, "shared"]);
    expect(await words(org.member)).toEqual([]);
  });

  test("the reference's length limit: 100 characters, counted before trimming, each emoji one; nothing stored on refusal", async () => {
    ok(await add(org.member, ["kept"]));
    const response = await add(org.member, ["fine", "x".repeat(101)]);
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("alert_words[1] is too long (limit: 100 characters)");
    expectError(await add(org.member, [` ${"y".repeat(100)}`]), "BAD_REQUEST");
    expect(await words(org.member)).toEqual(["kept"]);
    expect(ok(await add(org.member, ["🎉".repeat(100)])).alert_words).toEqual(["kept", "🎉".repeat(100)]);
  });

  test("at most 1000 words a person: one more is refused and nothing of that request is stored", async () => {
    const thousand = Array.from({ length: 1000 }, (_, index) => `w${index}`);
    expect(ok(await add(org.member2, thousand)).alert_words).toHaveLength(1000);
    const response = await add(org.member2, ["w1", "one too many"]);
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("Too many alert words (limit: 1000)");
    // Words already there are no new words: the list is full, not over.
    expect(ok(await add(org.member2, ["W5"])).alert_words).toHaveLength(1000);
    expectError(await add(org.member, [...thousand, "x"]), "BAD_REQUEST");
    expect(await words(org.member)).toEqual([]);
    ok(await remove(org.member2, thousand));
  });

  test.each([
    ["missing", undefined, "Missing 'alert_words' argument"],
    ["not JSON", "[foo", "Argument 'alert_words' is not valid JSON."],
    ["a JSON string", JSON.stringify("foo"), undefined],
    ["a list of numbers", [1, 2], undefined],
    ["an object", { word: "foo" }, undefined],
    ["a list holding lists", [["foo"]], undefined],
    ["null", "null", undefined],
  ])("alert_words %s is a BAD_REQUEST on both POST and DELETE, changing nothing", async (_name, value, message) => {
    ok(await add(org.member, ["kept"]));
    const before = stored();
    for (const call of [org.member.api.post.bind(org.member.api), org.member.api.delete.bind(org.member.api)]) {
      const response = await call("/users/me/alert_words", value === undefined ? {} : { alert_words: typeof value === "string" ? value : JSON.stringify(value) });
      expectError(response, "BAD_REQUEST");
      if (message) expect(response.body.msg).toBe(message);
    }
    expect(stored()).toEqual(before);
  });

  test("a huge word or a huge list is refused before it is read", async () => {
    expectError(await add(org.member, ["x".repeat(200_000)]), "BAD_REQUEST");
    expectError(await remove(org.member, ["x".repeat(200_000)]), "BAD_REQUEST");
    expectError(await add(org.member, Array.from({ length: 1001 }, (_, index) => `w${index}`)), "BAD_REQUEST");
    expect(stored()).toEqual([]);
  });

  test("without credentials nothing is listed or changed", async () => {
    expect((await org.anon.get("/users/me/alert_words")).status).toBe(401);
    expect((await org.anon.post("/users/me/alert_words", { alert_words: ["x"] })).status).toBe(401);
    expect((await org.anon.delete("/users/me/alert_words", { alert_words: ["x"] })).status).toBe(401);
    expect(stored()).toEqual([]);
  });
});

describe("alert_words events and register section", () => {
  beforeEach(clearAll);

  test("each change sends the whole new list to the owner's queues only; a change that changes nothing sends nothing", async () => {
    const mine = ok(await org.member.api.post("/register", { fetch_event_types: ["alert_words"] }));
    const theirs = ok(await org.member2.api.post("/register", { fetch_event_types: ["alert_words"] }));
    expect(mine.alert_words).toEqual([]);
    ok(await add(org.member, ["One", "two"]));
    ok(await add(org.member, ["one"]));
    ok(await remove(org.member, ["ONE"]));
    ok(await remove(org.member, ["absent"]));
    const events = (await pending(org.member, mine.queue_id)).filter((event) => event.type !== "heartbeat");
    expect(events.map(({ id: _id, ...event }) => event)).toEqual([
      { type: "alert_words", alert_words: ["One", "two"] },
      { type: "alert_words", alert_words: ["two"] },
    ]);
    expect((await pending(org.member2, theirs.queue_id)).filter((event) => event.type !== "heartbeat")).toEqual([]);
    expect(ok(await org.member.api.post("/register", { fetch_event_types: ["alert_words"] })).alert_words).toEqual(["two"]);
  });

  test("the section is there only when asked for, or when everything is", async () => {
    ok(await add(org.member, ["asked"]));
    expect(ok(await org.member.api.post("/register", { fetch_event_types: ["message"] }))).not.toHaveProperty("alert_words");
    expect(ok(await org.member.api.post("/register", {})).alert_words).toEqual(["asked"]);
  });
});

describe("the has_alert_word flag", () => {
  beforeEach(clearAll);

  const sendFrom = async (person: Person, content: string, topic = "t") => (await sendOk(person, channelMessage(channel, topic, content))).id;

  test("a recipient with a matching word gets the flag in GET /messages; others and the sender do not", async () => {
    ok(await add(org.member2, ["deploy"]));
    ok(await add(org.member, ["deploy"]));
    const id = await sendFrom(org.member, "Time to DEPLOY now");
    expect(await flagsOf(org.member2, id)).toEqual(["has_alert_word"]);
    expect(await flagsOf(org.moderator, id)).toEqual([]);
    // Sent through the API, so not read by the sender either (the reference's rule).
    expect(await flagsOf(org.member, id)).toEqual([]);
  });

  test.each([
    ["deploy", true],
    ["deploy.", true],
    ["(deploy)", true],
    ["\"deploy\"", true],
    ["`deploy`", true],
    ["**deploy**", true],
    ["> deploy", true],
    ["line one\ndeploy?", true],
    ["deploy!", true],
    ["deploy: now", true],
    ["[deploy]", true],
    ["deployment", false],
    ["redeploy", false],
    ["deploy-now", false],
    ["pre_deploy", false],
    ["https://example.com/deploy", false],
  ])("whole words only, as the reference: %j alerts: %p", async (content, alerted) => {
    ok(await add(org.member2, ["deploy"]));
    const id = await sendFrom(org.member, content);
    expect((await flagsOf(org.member2, id)).includes("has_alert_word")).toBe(alerted);
  });

  test("phrases and words outside ASCII match without regard to case", async () => {
    ok(await add(org.member2, ["big news", "Ärger"]));
    const phrase = await sendFrom(org.member, "Some BIG News today");
    const umlaut = await sendFrom(org.member, "so viel ärger.");
    const neither = await sendFrom(org.member, "big, news");
    expect(await flagsOf(org.member2, phrase)).toContain("has_alert_word");
    expect(await flagsOf(org.member2, umlaut)).toContain("has_alert_word");
    expect(await flagsOf(org.member2, neither)).not.toContain("has_alert_word");
  });

  test("a word added or removed counts for the very next message", async () => {
    const before = await sendFrom(org.member, "release day");
    ok(await add(org.member2, ["release"]));
    const during = await sendFrom(org.member, "release day");
    ok(await remove(org.member2, ["release"]));
    const after = await sendFrom(org.member, "release day");
    expect(await flagsOf(org.member2, before)).not.toContain("has_alert_word");
    expect(await flagsOf(org.member2, during)).toContain("has_alert_word");
    expect(await flagsOf(org.member2, after)).not.toContain("has_alert_word");
  });

  test("direct messages alert their recipients, not the sender", async () => {
    ok(await add(org.member2, ["lunch"]));
    ok(await add(org.guest, ["lunch"]));
    const id = (await sendOk(org.guest, directMessage([org.member2.id], "lunch?"))).id;
    expect(await flagsOf(org.member2, id)).toEqual(["has_alert_word"]);
    expect(await flagsOf(org.guest, id)).toEqual([]);
  });

  test("the message event carries the flag for the alerted recipient only", async () => {
    ok(await add(org.member2, ["incident"]));
    const queues = await Promise.all([org.member2, org.moderator].map(async (person) => ({ person, queue: ok(await person.api.post("/register", { fetch_event_types: ["message"] })).queue_id })));
    const id = await sendFrom(org.member, "incident in prod");
    const flags = await Promise.all(queues.map(async ({ person, queue }) => (await pending(person, queue)).find((event) => event.type === "message" && event.message.id === id)!.flags));
    expect(flags).toEqual([["has_alert_word"], []]);
  });

  test("is:alerted finds the alerted messages, and its negation the rest", async () => {
    ok(await add(org.moderator, ["narrowword"]));
    const topic = uniqueName("narrow");
    const alerted = await sendFrom(org.member, "a narrowword here", topic);
    const plain = await sendFrom(org.member, "nothing here", topic);
    const find = async (negated: boolean) => {
      const narrow = [{ operator: "topic", operand: topic }, { operator: "is", operand: "alerted", negated }];
      return ok(await org.moderator.api.get("/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow: JSON.stringify(narrow) })).messages.map((message: { id: number }) => message.id);
    };
    expect(await find(false)).toEqual([alerted]);
    expect(await find(true)).toEqual([plain]);
  });

  test("editing the content adds or drops the flag, as the reference; the sender's own words still do not count", async () => {
    ok(await add(org.member2, ["urgent"]));
    ok(await add(org.member, ["urgent"]));
    const id = await sendFrom(org.member, "whenever you can");
    expect(await flagsOf(org.member2, id)).toEqual([]);
    const queue = ok(await org.member2.api.post("/register", { fetch_event_types: ["message"] })).queue_id;
    ok(await org.member.api.patch(`/messages/${id}`, { content: "URGENT: please look" }));
    expect(await flagsOf(org.member2, id)).toEqual(["has_alert_word"]);
    expect(await flagsOf(org.member, id)).toEqual([]);
    const update = (await pending(org.member2, queue)).find((event) => event.type === "update_message")!;
    expect(update.flags).toEqual(["has_alert_word"]);
    ok(await org.member.api.patch(`/messages/${id}`, { content: "never mind" }));
    expect(await flagsOf(org.member2, id)).toEqual([]);
  });

  test("editing keeps the other flags: a starred alerted message stays starred when its word goes", async () => {
    ok(await add(org.member2, ["keepme"]));
    const id = await sendFrom(org.member, "keepme");
    ok(await org.member2.api.post("/messages/flags", { messages: [id], op: "add", flag: "starred" }));
    ok(await org.member.api.patch(`/messages/${id}`, { content: "gone" }));
    expect(await flagsOf(org.member2, id)).toEqual(["starred"]);
  });

  test("the flag cannot be set or cleared by hand", async () => {
    ok(await add(org.member2, ["handmade"]));
    const id = await sendFrom(org.member, "handmade");
    for (const op of ["add", "remove"]) {
      const response = await org.member2.api.post("/messages/flags", { messages: [id], op, flag: "has_alert_word" });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("Flag not editable: 'has_alert_word'");
    }
    expect(await flagsOf(org.member2, id)).toEqual(["has_alert_word"]);
  });
});
