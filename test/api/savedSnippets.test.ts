import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { queryServer } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { SEED_TIMEOUT_MS } from "../events/support";

/** Saved snippets (spec 2.7, 4.15): each user's own, invisible and untouchable to everyone else. */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

interface Snippet {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

async function snippets(person: Person): Promise<Snippet[]> {
  return ok(await person.api.get("/saved_snippets")).saved_snippets;
}

async function create(person: Person, title = "Greeting", content = "**Welcome** aboard!"): Promise<number> {
  return ok(await person.api.post("/saved_snippets", { title, content })).saved_snippet_id;
}

const storedCount = () => queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM saved_snippets")[0].n;

/** The reference answers an unknown snippet with 404 and code BAD_REQUEST. */
function expectNotFound(response: { status: number; body: any }) {
  expectError(response, "BAD_REQUEST", 404);
  expect(response.body.msg).toBe("Saved snippet does not exist.");
}

describe("POST and GET /saved_snippets", () => {
  test("creating returns the new ID; the list shows it with its creation time", async () => {
    const before = Math.floor(Date.now() / 1000);
    const body = ok(await org.member.api.post("/saved_snippets", { title: "Standup", content: "Yesterday / today / blockers" }));
    expect(body).toEqual({ result: "success", msg: "", saved_snippet_id: expect.any(Number) });
    const created = (await snippets(org.member)).find((each) => each.id === body.saved_snippet_id)!;
    expect(created).toEqual({ id: body.saved_snippet_id, title: "Standup", content: "Yesterday / today / blockers", date_created: expect.any(Number) });
    expect(created.date_created).toBeGreaterThanOrEqual(before - 1);
  });

  test("title and content are stored trimmed", async () => {
    const id = await create(org.member, "  Padded  ", "\n body \n");
    expect((await snippets(org.member)).find((each) => each.id === id)).toMatchObject({ title: "Padded", content: "body" });
  });

  test("every role has its own list, guests and bots included; nobody sees another's", async () => {
    const people = [org.owner, org.admin, org.moderator, org.member2, org.guest, org.bot];
    const ids = await Promise.all(people.map((person, index) => create(person, `Mine ${index}`)));
    for (const [index, person] of people.entries()) {
      expect((await snippets(person)).map((each) => each.id)).toEqual([ids[index]]);
    }
  });

  test.each([
    ["an empty title", { title: "", content: "text" }, "Title cannot be empty."],
    ["a blank title", { title: "   ", content: "text" }, "Title cannot be empty."],
    ["an empty content", { title: "Title", content: "" }, "Content cannot be empty."],
    ["a blank content", { title: "Title", content: " \n " }, "Content cannot be empty."],
  ])("%s is a BAD_REQUEST and nothing is stored", async (_name, params, message) => {
    const before = storedCount();
    const response = await org.member.api.post("/saved_snippets", params);
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe(message);
    expect(storedCount()).toBe(before);
  });

  test("missing parameters, a title over 60 characters and huge strings are 400s", async () => {
    const before = storedCount();
    expectError(await org.member.api.post("/saved_snippets", { title: "Only title" }), "BAD_REQUEST");
    expectError(await org.member.api.post("/saved_snippets", { content: "Only content" }), "BAD_REQUEST");
    expectError(await org.member.api.post("/saved_snippets", { title: "t".repeat(61), content: "x" }), "BAD_REQUEST");
    expectError(await org.member.api.post("/saved_snippets", { title: "t", content: "x".repeat(200_000) }), "BAD_REQUEST");
    expect(storedCount()).toBe(before);
    // Sixty characters is the limit, counted as characters: emoji are one each.
    await create(org.member, "🎉".repeat(60));
  });

  test("without credentials nothing is listed", async () => {
    expect((await org.anon.get("/saved_snippets")).status).toBe(401);
  });
});

describe("PATCH /saved_snippets/{saved_snippet_id}", () => {
  test("changes only what was passed", async () => {
    const id = await create(org.member, "Old title", "Old content");
    ok(await org.member.api.patch(`/saved_snippets/${id}`, { title: "New title" }));
    expect((await snippets(org.member)).find((each) => each.id === id)).toMatchObject({ title: "New title", content: "Old content" });
    ok(await org.member.api.patch(`/saved_snippets/${id}`, { content: "New content" }));
    expect((await snippets(org.member)).find((each) => each.id === id)).toMatchObject({ title: "New title", content: "New content" });
    ok(await org.member.api.patch(`/saved_snippets/${id}`, {}));
    expect((await snippets(org.member)).find((each) => each.id === id)).toMatchObject({ title: "New title", content: "New content" });
  });

  test("an unknown ID and another user's snippet are the same not-found error, changing nothing", async () => {
    const theirs = await create(org.member2, "Theirs", "Private");
    expectNotFound(await org.member.api.patch(`/saved_snippets/${theirs}`, { title: "Mine now" }));
    expectNotFound(await org.admin.api.patch(`/saved_snippets/${theirs}`, { title: "Mine now" }));
    expectNotFound(await org.member.api.patch("/saved_snippets/999999", { title: "x" }));
    expectNotFound(await org.member.api.patch(`/saved_snippets/${theirs}`, {}));
    expect((await snippets(org.member2)).find((each) => each.id === theirs)).toMatchObject({ title: "Theirs", content: "Private" });
  });

  test("emptying the title or the content is refused", async () => {
    const id = await create(org.member, "Keep", "Keep too");
    expectError(await org.member.api.patch(`/saved_snippets/${id}`, { title: " " }), "BAD_REQUEST");
    expectError(await org.member.api.patch(`/saved_snippets/${id}`, { content: "" }), "BAD_REQUEST");
    expectError(await org.member.api.patch("/saved_snippets/abc", { title: "x" }), "BAD_REQUEST");
    expect((await snippets(org.member)).find((each) => each.id === id)).toMatchObject({ title: "Keep", content: "Keep too" });
  });
});

describe("DELETE /saved_snippets/{saved_snippet_id}", () => {
  test("the owner deletes their snippet", async () => {
    const id = await create(org.member);
    ok(await org.member.api.delete(`/saved_snippets/${id}`));
    expect((await snippets(org.member)).map((each) => each.id)).not.toContain(id);
    expectNotFound(await org.member.api.delete(`/saved_snippets/${id}`));
  });

  test("nobody else can delete it, not even the owner of the organization", async () => {
    const id = await create(org.member2, "Survivor");
    for (const person of [org.owner, org.admin, org.member, org.guest, org.bot]) {
      expectNotFound(await person.api.delete(`/saved_snippets/${id}`));
    }
    expect((await snippets(org.member2)).map((each) => each.id)).toContain(id);
  });
});
