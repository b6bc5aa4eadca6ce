import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel } from "../helpers/channels";
import { type Org, type Person, ok, seedOrg } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS, type Event, type State, pendingOf, register } from "./support";

/** realm_linkifiers: the snapshot and events, only for clients with linkifier_url_template (spec 4.19, 6). */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const CAPABLE = { client_capabilities: { linkifier_url_template: true } };

async function snapshot(person: Person, params: Record<string, unknown> = CAPABLE): Promise<State> {
  return register(person, { fetch_event_types: ["realm_linkifiers"], ...params });
}

/** What a client does with the events: each carries the whole new list. */
function applyLinkifierEvents(state: State, events: Event[]): State {
  let linkifiers = state.realm_linkifiers;
  for (const event of events) linkifiers = event.realm_linkifiers;
  return { ...state, realm_linkifiers: linkifiers };
}

let counter = 0;
const definition = () => ({ pattern: `EV${++counter}-(?P<id>[0-9]+)`, url_template: "https://example.com/issues/{id}" });

describe("realm_linkifiers", () => {
  test("register returns the ordered list to capable clients and an empty one to others", async () => {
    const { id } = ok(await org.admin.api.post("/realm/filters", definition()));
    const listed = ok(await org.member.api.get("/realm/linkifiers")).linkifiers;
    expect((await snapshot(org.member)).realm_linkifiers).toEqual(listed);
    expect(listed.map((each: { id: number }) => each.id)).toContain(id);
    expect((await snapshot(org.member, {})).realm_linkifiers).toEqual([]);
  });

  test("every change sends every capable client the whole list; replaying the events gives a fresh snapshot", async () => {
    const people = [org.owner, org.member, org.guest, org.bot];
    const queues = await Promise.all(people.map((person) => snapshot(person)));
    const { id } = ok(await org.admin.api.post("/realm/filters", definition()));
    ok(await org.admin.api.patch(`/realm/filters/${id}`, definition()));
    const ids = ok(await org.admin.api.get("/realm/linkifiers")).linkifiers.map((each: { id: number }) => each.id);
    ok(await org.admin.api.patch("/realm/linkifiers", { ordered_linkifier_ids: [...ids].reverse() }));
    const { id: doomed } = ok(await org.admin.api.post("/realm/filters", definition()));
    ok(await org.admin.api.delete(`/realm/filters/${doomed}`));

    for (const [index, person] of people.entries()) {
      const events = await pendingOf(person, queues[index].queue_id, ["realm_linkifiers"]);
      expect(events).toHaveLength(5);
      expect(Object.keys(events[0]).sort()).toEqual(["id", "realm_linkifiers", "type"]);
      const fresh = await snapshot(person);
      expect(applyLinkifierEvents(queues[index], events).realm_linkifiers).toEqual(fresh.realm_linkifiers);
    }
  });

  test("clients without linkifier_url_template get no realm_linkifiers events", async () => {
    const plain = await register(org.member, { fetch_event_types: ["realm_linkifiers"] });
    const capable = await snapshot(org.member);
    ok(await org.admin.api.post("/realm/filters", definition()));
    expect(await pendingOf(org.member, plain.queue_id, ["realm_linkifiers"])).toEqual([]);
    expect(await pendingOf(org.member, capable.queue_id, ["realm_linkifiers"])).toHaveLength(1);
  });

  test("a refused or invalid change sends nothing", async () => {
    const queue = await snapshot(org.member);
    expect((await org.member.api.post("/realm/filters", definition())).status).toBe(400);
    expect((await org.admin.api.post("/realm/filters", { pattern: "a(", url_template: "https://example.com/" })).status).toBe(400);
    expect((await org.admin.api.patch("/realm/linkifiers", { ordered_linkifier_ids: [] })).status).toBe(400);
    expect(await pendingOf(org.member, queue.queue_id, ["realm_linkifiers"])).toEqual([]);
  });

  test("message events of later sends carry the links in rendered content and topic_links", async () => {
    ok(await org.admin.api.post("/realm/filters", { pattern: "MSG-(?P<id>[0-9]+)", url_template: "https://example.com/msg/{id}" }));
    const channel = await createChannel(org, org.member);
    const { queue_id } = await register(org.member, { event_types: ["message"], apply_markdown: true, fetch_event_types: [] });
    const { id } = await sendOk(org.member, channelMessage(channel, "topic MSG-1", "body MSG-2"));
    const [event] = (await pendingOf(org.member, queue_id, ["message"])).filter((each) => each.message.id === id);
    expect(event.message.content).toContain('href="https://example.com/msg/2"');
    expect(event.message.topic_links).toEqual([{ text: "MSG-1", url: "https://example.com/msg/1" }]);
  });
});
