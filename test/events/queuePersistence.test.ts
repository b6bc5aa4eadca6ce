import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { readCapabilities, type QueueSpec } from "../../src/events/spec";
import { createChannel, uniqueName } from "../helpers/channels";
import { ApiClient } from "../helpers/client";
import { expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS, type Event } from "./support";

/**
 * The file a graceful stop saves queues in holds each distinct event once (issue 11: it held
 * every queue's copy, 543 MB for 1,000 queues and 100 messages of 5 KB), and the queues that
 * shared an event before the restart share it again after, so their answers are still written
 * once and gzipped for all (events/answer.ts).
 */

const QUEUES = 24;
const MESSAGES = 3;
const MESSAGE_CHARS = 9_000;

let org: Org;
let channelName: string;

beforeAll(async () => {
  org = await seedOrg();
  channelName = uniqueName("saved");
  await createChannel(org, org.owner, { principals: [org.owner.id, org.member.id, org.member2.id] }, channelName);
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const queueFile = () => join(org.server.dataDir, "event_queues.json");

/** Restarts the server (or starts it if stopped); it comes back on a new port, so clients follow. */
async function restart() {
  await org.server.restart("SIGTERM");
  org.anon = new ApiClient(org.server.url);
  for (const role of ["owner", "admin", "moderator", "member", "member2", "guest", "bot"] as const) {
    org[role] = { ...org[role], api: org.anon.as(org[role].email, org[role].apiKey) };
  }
}

const messageQueue = async (person: Person) => ok(await person.api.post("/register", { event_types: ["message"], fetch_event_types: [] })).queue_id as string;

/** GET /events accepting gzip, seen as the bytes on the wire (Bun's fetch would decode silently). */
async function rawEvents(person: Person, queueId: string) {
  const url = new URL("/api/v1/events", org.server.url);
  for (const [name, value] of Object.entries({ queue_id: queueId, last_event_id: "-1", dont_block: "true" })) url.searchParams.set(name, value);
  const authorization = `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}`;
  const response = await fetch(url, { headers: { authorization, "accept-encoding": "gzip" }, decompress: false });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const gzipped = response.headers.get("content-encoding") === "gzip";
  const body = JSON.parse(Buffer.from(gzipped ? gunzipSync(bytes) : bytes).toString("utf8"));
  expect(response.status).toBe(200);
  return { gzipped, events: body.events as Event[] };
}

/** Filler text that stays about this long once rendered. */
const longContent = (i: number) => `Message ${i}: ${"lorem ipsum dolor sit amet ".repeat(Math.ceil(MESSAGE_CHARS / 27))}`.slice(0, MESSAGE_CHARS);

describe("the saved queue file", () => {
  test("holds each shared event once, so its size follows distinct events, and restored queues share them again", async () => {
    const queues: Array<[Person, string]> = [];
    for (let i = 0; i < QUEUES; i++) {
      const person = i % 2 === 0 ? org.member : org.member2;
      queues.push([person, await messageQueue(person)]);
    }
    const messageIds: number[] = [];
    for (let i = 0; i < MESSAGES; i++) messageIds.push((await sendOk(org.owner, channelMessage(channelName, "saved", longContent(i)))).id);
    const before = await rawEvents(...queues[0]);
    expect(before.events.map((event) => event.message.id)).toEqual(messageIds);

    expect(await org.server.stop("SIGTERM")).toBe(0);
    const size = statSync(queueFile()).size;
    const saved = JSON.parse(readFileSync(queueFile(), "utf8"));
    expect(saved.version).toBe(2);
    expect(saved.queues).toHaveLength(QUEUES);
    // Both members get the same copy of each message (same flags, same shape): one each.
    expect(saved.events).toHaveLength(MESSAGES);
    // The content is there once per message, not once per queue: the old format wrote
    // QUEUES x MESSAGES copies (about 650 KB here); a queue's own entry is well under 1 KB.
    expect(size).toBeGreaterThan(MESSAGES * MESSAGE_CHARS);
    expect(size).toBeLessThan(MESSAGES * MESSAGE_CHARS * 1.5 + QUEUES * 1_000);

    await restart();
    expect(existsSync(queueFile())).toBe(false);
    const answers = [];
    for (const queue of queues) answers.push(await rawEvents(...queue));
    for (const answer of answers) {
      expect(answer.events.map((event) => event.type)).toEqual([...messageIds.map(() => "message"), "restart"]);
      // The same events with the same IDs as before the restart, and one restart event for all.
      expect(answer.events.slice(0, MESSAGES)).toEqual(before.events);
      expect(answer.events.at(-1)!.id).toBe(answers[0].events.at(-1)!.id);
    }
    // Shared again: the first answer is written as JSON, every later one reuses it gzipped.
    expect(answers.map((answer) => answer.gzipped)).toEqual([false, ...queues.slice(1).map(() => true)]);
  });
});

const spec = (): QueueSpec => ({ eventTypes: null, narrow: [], allPublicStreams: false, applyMarkdown: true, clientGravatar: false, slimPresence: false, capabilities: readCapabilities() });

describe("files written by other versions, or damaged", () => {
  test("a version 1 file (the previous release's) is read, and its copies of one event are shared again", async () => {
    await org.server.stop("SIGTERM");
    const event = { type: "message", message: { id: 999_001, content: "<p>from the old release</p>", sender_id: org.owner.id }, flags: [] };
    const queue = (id: string) => ({ id, userId: org.member.id, spec: spec(), nextEventId: 5_000, idleMs: 1_000, events: [{ id: 4_000, event }] });
    writeFileSync(queueFile(), JSON.stringify({ version: 1, queues: [queue("old-queue-1"), queue("old-queue-2")] }));
    await restart();

    const first = await rawEvents(org.member, "old-queue-1");
    const second = await rawEvents(org.member, "old-queue-2");
    expect(first.events.map(({ id, type }) => [id, type])).toEqual([
      [4_000, "message"],
      [expect.any(Number), "restart"],
    ]);
    // Event IDs go on above what the old file had given out.
    expect(first.events[1].id).toBeGreaterThanOrEqual(5_000);
    expect(second.events).toEqual(first.events);
    expect([first.gzipped, second.gzipped]).toEqual([false, true]);
  });

  test("a queue entry pointing at an event the file does not hold is left out; the others come back", async () => {
    await org.server.stop("SIGTERM");
    const entry = (id: string, events: number[]) => ({ id, userId: org.member.id, spec: spec(), idleMs: 0, events });
    const file = { version: 2, nextEventId: 7_001, events: [{ id: 7_000, event: { type: "heartbeat" } }], queues: [entry("kept", [0]), entry("broken", [0, 3])] };
    writeFileSync(queueFile(), JSON.stringify(file));
    await restart();

    expect((await rawEvents(org.member, "kept")).events.map((event) => event.type)).toEqual(["heartbeat", "restart"]);
    expectError(await org.member.api.get("/events", { queue_id: "broken", dont_block: true }), "BAD_EVENT_QUEUE_ID", 400);
    expect(org.server.output).toContain("skipped 1 damaged queue entries");
  });

  test("an unreadable file is ignored and removed, and the server starts", async () => {
    await org.server.stop("SIGTERM");
    writeFileSync(queueFile(), '{"version":2,"events":[{"id":1,');
    await restart();
    expect(existsSync(queueFile())).toBe(false);
    expect(org.server.output).toContain("Ignoring unreadable event_queues.json");
    ok(await org.member.api.get("/users/me"));
  });
});
