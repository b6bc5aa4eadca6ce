import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { createChannel, uniqueName } from "../helpers/channels";
import { ok, type Org, type Person, seedOrg } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS, type Event, register } from "./support";

// GET /events answers that carry an event list already sent to another queue go out gzipped
// (one compression shared by all), and a published event has one ID in every queue it reaches.
// The GETs here use raw fetch with decompress: false, so the test sees the bytes on the wire
// and chooses Accept-Encoding itself (Bun's fetch would otherwise send gzip and decode silently).

let org: Org;
let channelName: string;

beforeAll(async () => {
  org = await seedOrg();
  channelName = uniqueName("gzip");
  await createChannel(org, org.owner, { principals: [org.owner.id, org.member.id, org.member2.id] }, channelName);
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

/** A queue of `person`'s that gets only message events. */
const messageQueue = async (person: Person, params: Record<string, unknown> = {}): Promise<string> =>
  (await register(person, { event_types: ["message"], fetch_event_types: [], ...params })).queue_id;

let sent = 0;
const sendToChannel = async () => (await sendOk(org.owner, channelMessage(channelName, "gzip", `message ${++sent}`))).id;

interface RawAnswer {
  status: number;
  encoding: string | null;
  vary: string | null;
  bytes: Uint8Array;
  /** The parsed body, gunzipped first if the server said it was. */
  body: Record<string, any>;
}

/** GET /events without waiting, with this Accept-Encoding, read as the raw bytes the server sent. */
async function rawEvents(person: Person, queueId: string, acceptEncoding: string, extraQuery: Record<string, string> = {}): Promise<RawAnswer> {
  const url = new URL("/api/v1/events", org.server.url);
  for (const [name, value] of Object.entries({ queue_id: queueId, last_event_id: "-1", dont_block: "true", ...extraQuery })) url.searchParams.set(name, value);
  const authorization = `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}`;
  const response = await fetch(url, { headers: { authorization, "accept-encoding": acceptEncoding }, decompress: false });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const encoding = response.headers.get("content-encoding");
  const text = Buffer.from(encoding === "gzip" ? gunzipSync(bytes) : bytes).toString("utf8");
  return { status: response.status, encoding, vary: response.headers.get("vary"), bytes, body: JSON.parse(text) };
}

/** Plain JSON on the wire: no content-encoding, and the bytes themselves parse. */
function expectPlain(answer: RawAnswer) {
  expect(answer.status).toBe(200);
  expect(answer.encoding).toBeNull();
  expect(JSON.parse(Buffer.from(answer.bytes).toString("utf8"))).toEqual(answer.body);
}

/** A gzip stream on the wire, said so by content-encoding. */
function expectGzipped(answer: RawAnswer) {
  expect(answer.status).toBe(200);
  expect(answer.encoding).toBe("gzip");
  expect([...answer.bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
}

const varyOnEncoding = (answer: RawAnswer) => (answer.vary ?? "").toLowerCase().split(/\s*,\s*/).includes("accept-encoding");
const idsOf = (events: Event[]) => events.map((event) => event.id);
const messageIdsOf = (events: Event[]) => events.map((event) => event.message.id);

describe("gzipped GET /events answers", () => {
  test("the first answer of an event list is JSON; the next queue's answer of the same list is gzip, with its own queue_id", async () => {
    const [first, second, third] = [await messageQueue(org.member), await messageQueue(org.member2), await messageQueue(org.member)];
    const messageId = await sendToChannel();

    const plain = await rawEvents(org.member, first, "gzip, deflate");
    expectPlain(plain);
    expect(plain.body).toMatchObject({ result: "success", msg: "", queue_id: first });
    expect(messageIdsOf(plain.body.events)).toEqual([messageId]);

    const gzipped = await rawEvents(org.member2, second, "gzip, deflate");
    expectGzipped(gzipped);
    // The same events, IDs included; only the envelope's queue_id is this queue's.
    expect(gzipped.body).toEqual({ ...plain.body, queue_id: second });
    expect(Object.keys(gzipped.body)).toEqual(["result", "msg", "events", "queue_id"]);

    // Both kinds of answer tell caches they depend on Accept-Encoding.
    expect(varyOnEncoding(plain)).toBe(true);
    expect(varyOnEncoding(gzipped)).toBe(true);

    // An ordinary client (Bun's fetch: accepts gzip, decodes it) reads the shared answer as JSON.
    const viaClient = await org.member.api.get("/events", { queue_id: third, last_event_id: -1, dont_block: true });
    expect(ok(viaClient)).toEqual({ ...plain.body, queue_id: third });
  });

  test("a client that does not accept gzip gets plain JSON, even for a shared list", async () => {
    const queues = [await messageQueue(org.member), await messageQueue(org.member2), await messageQueue(org.member), await messageQueue(org.member2)];
    const messageId = await sendToChannel();
    const refusals = ["identity", "gzip;q=0", "deflate, br"];
    for (const [i, refusal] of refusals.entries()) {
      const answer = await rawEvents(i % 2 === 0 ? org.member : org.member2, queues[i], refusal);
      expectPlain(answer);
      expect(varyOnEncoding(answer)).toBe(true);
      expect(answer.body.queue_id).toBe(queues[i]);
      expect(messageIdsOf(answer.body.events)).toEqual([messageId]);
    }
    // The list was shared all along: a client accepting gzip gets it gzipped.
    expectGzipped(await rawEvents(org.member2, queues[3], "gzip"));
  });

  test("an unknown parameter is still named in a gzipped answer", async () => {
    const [first, second] = [await messageQueue(org.member), await messageQueue(org.member2)];
    await sendToChannel();
    expectPlain(await rawEvents(org.member, first, "gzip"));
    const answer = await rawEvents(org.member2, second, "gzip", { colour: "blue" });
    expectGzipped(answer);
    expect(answer.body).toMatchObject({ result: "success", queue_id: second, ignored_parameters_unsupported: ["colour"] });
    expect(answer.body.events).toHaveLength(1);
  });
});

describe("event IDs shared across queues", () => {
  test("a message has the same ID in every queue that got it, whatever the queue's history or shape; IDs in a queue increase", async () => {
    // One queue has seen a message the others have not: per-queue counters would now disagree.
    const older = await messageQueue(org.member2);
    await sendToChannel();
    const queues: Array<[Person, string]> = [
      [org.member2, older],
      [org.member, await messageQueue(org.member)],
      // The sender's own queue, and a differently shaped copy: HTML instead of the default Markdown.
      [org.owner, await messageQueue(org.owner)],
      [org.member, await messageQueue(org.member, { apply_markdown: true })],
    ];
    const messageIds = [await sendToChannel(), await sendToChannel(), await sendToChannel()];

    const lists = await Promise.all(
      queues.map(async ([person, queueId]) => ((await rawEvents(person, queueId, "identity")).body.events as Event[]).filter((event) => messageIds.includes(event.message.id))),
    );
    for (const events of lists) expect(messageIdsOf(events)).toEqual(messageIds);
    // The copies did differ in shape, so equal IDs are not just equal objects.
    expect(lists[1][0].message.content).toBe(`message ${sent - 2}`);
    expect(lists[3][0].message.content).toBe(`<p>message ${sent - 2}</p>`);

    const ids = idsOf(lists[1]);
    for (const events of lists) expect(idsOf(events)).toEqual(ids);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
  });

  test("a queue registered later gets IDs above every ID already handed out", async () => {
    const early = await messageQueue(org.member);
    await sendToChannel();
    await sendToChannel();
    const earlyIds = idsOf((await rawEvents(org.member, early, "identity")).body.events);
    expect(earlyIds).toHaveLength(2);

    const late = await messageQueue(org.member2);
    const messageId = await sendToChannel();
    const lateEvents: Event[] = (await rawEvents(org.member2, late, "identity")).body.events;
    expect(messageIdsOf(lateEvents)).toEqual([messageId]);
    // Earlier tests in this file used IDs already: the new queue does not start again at 0.
    expect(lateEvents[0].id).toBeGreaterThan(Math.max(...earlyIds));
    // And the early queue got that same event under the same ID.
    const earlyEvents: Event[] = (await rawEvents(org.member, early, "identity")).body.events;
    expect(idsOf(earlyEvents)).toEqual([...earlyIds, lateEvents[0].id]);
    expect(earlyEvents[2].message.id).toBe(messageId);
  });
});
