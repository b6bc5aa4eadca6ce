import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Org, ok, seedOrg } from "../helpers/seed";
import { SEED_TIMEOUT_MS, type Event, type State, pendingOf, register } from "./support";

/** saved_snippets: the owner's snapshot and events; nobody else hears of them. */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const SECTIONS = { fetch_event_types: ["saved_snippets"] };

/** The reference's apply_events for saved_snippets. */
function applySnippetEvents(state: State, events: Event[]): State {
  let list: State[] = [...state.saved_snippets];
  for (const event of events) {
    if (event.op === "add") list.push(event.saved_snippet);
    if (event.op === "update") list = list.map((each) => (each.id === event.saved_snippet.id ? event.saved_snippet : each));
    if (event.op === "remove") list = list.filter((each) => each.id !== event.saved_snippet_id);
  }
  return { ...state, saved_snippets: list };
}

describe("saved_snippets events", () => {
  test("add, update and remove reach the owner in the reference shapes; replaying them gives a fresh snapshot", async () => {
    const kept = ok(await org.member.api.post("/saved_snippets", { title: "Kept", content: "Stays" })).saved_snippet_id;
    const before = await register(org.member, SECTIONS);
    expect(before.saved_snippets).toEqual([{ id: kept, title: "Kept", content: "Stays", date_created: expect.any(Number) }]);

    const id = ok(await org.member.api.post("/saved_snippets", { title: "Draft", content: "First" })).saved_snippet_id;
    ok(await org.member.api.patch(`/saved_snippets/${id}`, { content: "Second" }));
    ok(await org.member.api.patch(`/saved_snippets/${kept}`, { title: "Kept, renamed" }));
    ok(await org.member.api.delete(`/saved_snippets/${id}`));

    const events = await pendingOf(org.member, before.queue_id, ["saved_snippets"]);
    const created = { id, title: "Draft", content: "First", date_created: expect.any(Number) };
    expect(events.map(({ id: _eventId, ...event }) => event)).toEqual([
      { type: "saved_snippets", op: "add", saved_snippet: created },
      { type: "saved_snippets", op: "update", saved_snippet: { ...created, content: "Second" } },
      { type: "saved_snippets", op: "update", saved_snippet: { id: kept, title: "Kept, renamed", content: "Stays", date_created: expect.any(Number) } },
      { type: "saved_snippets", op: "remove", saved_snippet_id: id },
    ]);
    const fresh = await register(org.member, SECTIONS);
    expect(applySnippetEvents(before, events).saved_snippets).toEqual(fresh.saved_snippets);
  });

  test("nobody but the owner hears of a snippet, and failed or empty changes send nothing", async () => {
    const others = [org.owner, org.admin, org.member2, org.guest, org.bot];
    const queues = await Promise.all(others.map((person) => register(person, SECTIONS)));
    const own = await register(org.member, SECTIONS);
    const id = ok(await org.member.api.post("/saved_snippets", { title: "Secret", content: "Hush" })).saved_snippet_id;
    ok(await org.member.api.patch(`/saved_snippets/${id}`, { title: "Still secret" }));
    ok(await org.member.api.delete(`/saved_snippets/${id}`));
    for (const [index, person] of others.entries()) {
      expect(await pendingOf(person, queues[index].queue_id, ["saved_snippets"])).toEqual([]);
    }
    expect(await pendingOf(org.member, own.queue_id, ["saved_snippets"])).toHaveLength(3);

    const quiet = await register(org.member, SECTIONS);
    const other = ok(await org.member.api.post("/saved_snippets", { title: "Quiet", content: "Shh" })).saved_snippet_id;
    const afterCreate = (await pendingOf(org.member, quiet.queue_id, ["saved_snippets"])).length;
    ok(await org.member.api.patch(`/saved_snippets/${other}`, {}));
    expect((await org.member.api.patch(`/saved_snippets/${other}`, { title: "" })).status).toBe(400);
    expect((await org.admin.api.delete(`/saved_snippets/${other}`)).status).toBe(404);
    expect(await pendingOf(org.member, quiet.queue_id, ["saved_snippets"])).toHaveLength(afterCreate);
  });
});
