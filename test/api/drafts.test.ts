import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer } from "../helpers/channels";
import { createPerson, expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { SEED_TIMEOUT_MS, pending, pendingOf, register } from "../events/support";

let org: Org;
let publicChannel: number;
let privateChannel: number;

beforeAll(async () => {
  org = await seedOrg();
  publicChannel = await createChannel(org, org.owner);
  privateChannel = await createChannel(org, org.owner, { invite_only: true });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const draftsOf = async (person: Person) => ok(await person.api.get("/drafts"));
const queueOf = async (person: Person) => (await register(person, { fetch_event_types: [] })).queue_id as string;
const draftCount = () => queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM drafts")[0].n;
const channelDraft = (content = "Let's add backend support", extra: Record<string, unknown> = {}) => ({ type: "stream", to: [publicChannel], topic: "sync drafts", content, timestamp: 1595479019, ...extra });
const strip = (events: Array<{ id: number }>) => events.map(({ id: _id, ...event }) => event);

async function createDrafts(person: Person, drafts: unknown[]): Promise<number[]> {
  return ok(await person.api.post("/drafts", { drafts })).ids;
}

describe("POST /drafts and GET /drafts", () => {
  test("creates drafts of every kind, answers their IDs in order, and lists them newest edit first", async () => {
    const person = await createPerson(org.owner, org.anon, "Dora Drafter");
    const ids = await createDrafts(person, [
      channelDraft("first", { timestamp: 100 }),
      { type: "private", to: [org.member.id, org.member2.id], topic: "ignored", content: "to two", timestamp: 300 },
      { type: "", to: [], topic: "", content: "nowhere yet", timestamp: 200 },
    ]);
    expect(ids).toHaveLength(3);
    expect(await draftsOf(person)).toEqual({
      result: "success",
      msg: "",
      count: 3,
      drafts: [
        { id: ids[1], type: "private", to: [org.member.id, org.member2.id].sort((a, b) => a - b), topic: "", content: "to two", timestamp: 300 },
        { id: ids[2], type: "", to: [], topic: "", content: "nowhere yet", timestamp: 200 },
        { id: ids[0], type: "stream", to: [publicChannel], topic: "sync drafts", content: "first", timestamp: 100 },
      ],
    });
  });

  test("a missing timestamp is now", async () => {
    const before = Math.floor(Date.now() / 1000);
    const [id] = await createDrafts(org.member2, [{ type: "", to: [], topic: "", content: "stamped" }]);
    const draft = (await draftsOf(org.member2)).drafts.find((each: { id: number }) => each.id === id);
    expect(draft.timestamp).toBeGreaterThanOrEqual(before);
    expect(draft.timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
  });

  test("the owner's clients get one add event with the drafts; nobody else hears of them", async () => {
    const own = await queueOf(org.member);
    const others = await Promise.all([org.owner, org.admin, org.member2].map(async (person) => [person, await queueOf(person)] as const));
    const ids = await createDrafts(org.member, [channelDraft("one"), channelDraft("two")]);
    expect(strip(await pendingOf(org.member, own, ["drafts"]))).toEqual([
      {
        type: "drafts",
        op: "add",
        drafts: [
          { id: ids[0], type: "stream", to: [publicChannel], topic: "sync drafts", content: "one", timestamp: 1595479019 },
          { id: ids[1], type: "stream", to: [publicChannel], topic: "sync drafts", content: "two", timestamp: 1595479019 },
        ],
      },
    ]);
    for (const [person, queueId] of others) expect(await pendingOf(person, queueId, ["drafts"])).toEqual([]);
  });

  test("drafts are per user: others neither list nor change them", async () => {
    const [id] = await createDrafts(org.member, [channelDraft("mine")]);
    expect((await draftsOf(org.member2)).drafts.map((draft: { id: number }) => draft.id)).not.toContain(id);
    expectError(await org.member2.api.patch(`/drafts/${id}`, { draft: channelDraft("theirs") }), "BAD_REQUEST", 404);
    expectError(await org.admin.api.delete(`/drafts/${id}`), "BAD_REQUEST", 404);
    expect((await draftsOf(org.member)).drafts.find((draft: { id: number }) => draft.id === id).content).toBe("mine");
  });

  test("register's drafts section holds the user's drafts", async () => {
    const state = await register(org.member, { fetch_event_types: ["drafts"] });
    expect(state.drafts).toEqual((await draftsOf(org.member)).drafts);
  });
});

describe("POST /drafts: bad drafts are refused and none of the batch is kept", () => {
  const cases: Array<[string, () => unknown[], string]> = [
    ["a channel draft naming two channels", () => [channelDraft("x", { to: [publicChannel, privateChannel] })], "exactly 1 channel"],
    ["a channel draft naming no channel", () => [channelDraft("x", { to: [] })], "exactly 1 channel"],
    ["an unknown channel", () => [channelDraft("x", { to: [999999] })], "Invalid channel"],
    ["a private channel the user is not in", () => [channelDraft("x", { to: [privateChannel] })], "Invalid channel"],
    ["an unknown user", () => [{ type: "private", to: [999999], topic: "", content: "x" }], "No such user"],
    ["empty content", () => [channelDraft("   ")], "empty"],
    ["a negative timestamp", () => [channelDraft("x", { timestamp: -5 })], "negative"],
    ["a null byte in the topic", () => [channelDraft("x", { topic: "a\u0000b" })], "null"],
    ["an unknown type", () => [{ type: "letter", to: [], topic: "", content: "x" }], "drafts"],
    ["a missing content", () => [{ type: "", to: [], topic: "" }], "drafts"],
    ["a huge content", () => [channelDraft("x".repeat(200_000))], "drafts"],
    ["a good draft beside a bad one", () => [channelDraft("fine"), channelDraft("x", { to: [999999] })], "Invalid channel"],
  ];
  for (const [name, drafts, mentioned] of cases) {
    test(name, async () => {
      const before = draftCount();
      const queueId = await queueOf(org.member2);
      const response = await org.member2.api.post("/drafts", { drafts: drafts() });
      expectError(response, "BAD_REQUEST", 400);
      expect(response.body.msg).toContain(mentioned);
      expect(draftCount()).toBe(before);
      expect(await pendingOf(org.member2, queueId, ["drafts"])).toEqual([]);
    });
  }

  test("a malformed JSON list is a BAD_REQUEST", async () => {
    const before = draftCount();
    expectError(await org.member2.api.post("/drafts", { drafts: "[{not json" }), "BAD_REQUEST", 400);
    expectError(await org.member2.api.post("/drafts", {}), "BAD_REQUEST", 400);
    expect(draftCount()).toBe(before);
  });

  test("a long topic is cut to the topic limit", async () => {
    const [id] = await createDrafts(org.member2, [channelDraft("long topic", { topic: "t".repeat(100) })]);
    expect((await draftsOf(org.member2)).drafts.find((draft: { id: number }) => draft.id === id).topic).toBe("t".repeat(60));
  });
});

describe("PATCH /drafts/{draft_id} and DELETE /drafts/{draft_id}", () => {
  test("an edit replaces the draft and tells the owner's clients", async () => {
    const [id] = await createDrafts(org.member, [channelDraft("before")]);
    const queueId = await queueOf(org.member);
    const replacement = { type: "private", to: [org.member2.id], topic: "", content: "after", timestamp: 1700000000 };
    expect(ok(await org.member.api.patch(`/drafts/${id}`, { draft: replacement }))).toEqual({ result: "success", msg: "" });
    const expected = { id, ...replacement };
    expect((await draftsOf(org.member)).drafts.find((draft: { id: number }) => draft.id === id)).toEqual(expected);
    expect(strip(await pendingOf(org.member, queueId, ["drafts"]))).toEqual([{ type: "drafts", op: "update", draft: expected }]);
  });

  test("an edit with bad content or for an unknown draft changes nothing", async () => {
    const [id] = await createDrafts(org.member, [channelDraft("kept")]);
    const queueId = await queueOf(org.member);
    expectError(await org.member.api.patch(`/drafts/${id}`, { draft: channelDraft("x", { to: [999999] }) }), "BAD_REQUEST", 400);
    expectError(await org.member.api.patch(`/drafts/${id}`, { draft: "{broken" }), "BAD_REQUEST", 400);
    expectError(await org.member.api.patch(`/drafts/${id}`, {}), "BAD_REQUEST", 400);
    const missing = await org.member.api.patch("/drafts/999999", { draft: channelDraft("x") });
    expectError(missing, "BAD_REQUEST", 404);
    expect(missing.body.msg).toBe("Draft does not exist");
    expectError(await org.member.api.patch("/drafts/abc", { draft: channelDraft("x") }), "BAD_REQUEST", 400);
    expect((await draftsOf(org.member)).drafts.find((draft: { id: number }) => draft.id === id).content).toBe("kept");
    expect(await pending(org.member, queueId)).toEqual([]);
  });

  test("deleting removes the draft and tells the owner's clients; a second delete is 404", async () => {
    const [id] = await createDrafts(org.member, [channelDraft("doomed")]);
    const queueId = await queueOf(org.member);
    ok(await org.member.api.delete(`/drafts/${id}`));
    expect((await draftsOf(org.member)).drafts.map((draft: { id: number }) => draft.id)).not.toContain(id);
    expect(strip(await pendingOf(org.member, queueId, ["drafts"]))).toEqual([{ type: "drafts", op: "remove", draft_id: id }]);
    const again = await org.member.api.delete(`/drafts/${id}`);
    expectError(again, "BAD_REQUEST", 404);
    expect(again.body.msg).toBe("Draft does not exist");
  });

  test("without credentials nothing is listed or changed", async () => {
    const before = draftCount();
    const listed = await org.anon.get("/drafts");
    expectError(listed, "UNAUTHORIZED", 401);
    expect(listed.body).not.toHaveProperty("drafts");
    expectError(await org.anon.post("/drafts", { drafts: [channelDraft()] }), "UNAUTHORIZED", 401);
    expect(draftCount()).toBe(before);
  });
});

describe("drafts events", () => {
  test("replaying add, update and remove on register's drafts gives the fresh drafts", async () => {
    const person = await createPerson(org.owner, org.anon, "Rita Replay");
    const [kept, edited, removed] = await createDrafts(person, [channelDraft("kept", { timestamp: 10 }), channelDraft("to edit", { timestamp: 20 }), channelDraft("to remove", { timestamp: 30 })]);
    const before = await register(person, { fetch_event_types: ["drafts"] });
    await createDrafts(person, [{ type: "", to: [], topic: "", content: "new one", timestamp: 40 }]);
    ok(await person.api.patch(`/drafts/${edited}`, { draft: channelDraft("edited", { timestamp: 50 }) }));
    ok(await person.api.delete(`/drafts/${removed}`));
    let drafts: Array<Record<string, any>> = structuredClone(before.drafts);
    for (const event of await pendingOf(person, before.queue_id, ["drafts"])) {
      if (event.op === "add") drafts.push(...event.drafts);
      if (event.op === "update") drafts = drafts.map((draft) => (draft.id === event.draft.id ? event.draft : draft));
      if (event.op === "remove") drafts = drafts.filter((draft) => draft.id !== event.draft_id);
    }
    drafts.sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);
    const fresh = (await register(person, { fetch_event_types: ["drafts"] })).drafts;
    expect(drafts).toEqual(fresh);
    expect(fresh.map((draft: { id: number }) => draft.id)).toContain(kept);
  });
});

describe("enable_drafts_synchronization (spec 2.11)", () => {
  test("turning it off deletes the user's server-side drafts with no event, and only theirs", async () => {
    const person = await createPerson(org.owner, org.anon, "Sam Syncer");
    await createDrafts(person, [channelDraft("a"), channelDraft("b")]);
    const [othersDraft] = await createDrafts(org.member, [channelDraft("untouched")]);
    const queueId = await queueOf(person);
    ok(await person.api.patch("/settings", { enable_drafts_synchronization: false }));
    expect(await draftsOf(person)).toMatchObject({ count: 0, drafts: [] });
    expect(queryServer(org.server, "SELECT id FROM drafts WHERE user_id = ?", person.id)).toEqual([]);
    expect(await pendingOf(person, queueId, ["drafts"])).toEqual([]);
    expect((await draftsOf(org.member)).drafts.map((draft: { id: number }) => draft.id)).toContain(othersDraft);
    expect((await register(person, { fetch_event_types: ["drafts"] })).drafts).toEqual([]);
  });

  test("while it is off, creating and editing are refused with the reference's error; on again, drafts are taken", async () => {
    const person = await createPerson(org.owner, org.anon, "Una Unsynced");
    const [id] = await createDrafts(person, [channelDraft("kept for a moment")]);
    ok(await person.api.patch("/settings", { enable_drafts_synchronization: false }));
    const refused = await person.api.post("/drafts", { drafts: [channelDraft("new")] });
    expectError(refused, "BAD_REQUEST", 400);
    expect(refused.body.msg).toBe("User has disabled synchronizing drafts.");
    const edit = await person.api.patch(`/drafts/${id}`, { draft: channelDraft("edited") });
    expectError(edit, "BAD_REQUEST", 400);
    expect(edit.body.msg).toBe("User has disabled synchronizing drafts.");
    expect(await draftsOf(person)).toMatchObject({ count: 0 });
    ok(await person.api.patch("/settings", { enable_drafts_synchronization: true }));
    expect(await createDrafts(person, [channelDraft("back on")])).toHaveLength(1);
  });
});
