import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel } from "../helpers/channels";
import { expectError, ok, seedOrg, type Org } from "../helpers/seed";
import { SEED_TIMEOUT_MS, pending, register } from "./support";

// What a queue holds is bounded by size as well as by number (PARLEY_QUEUE_MAX_MB): a client
// that never takes its events, or a member making each event huge (a flag change over 100,000
// messages lists them all), cannot make one queue hold memory without end. Here 20 KB of JSON:
// more than two messages of 9,000 characters, less than three.

let org: Org;

beforeAll(async () => {
  org = await seedOrg({ env: { PARLEY_QUEUE_MAX_MB: String(20 / 1024) } });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const messageQueue = async () => (await register(org.member, { event_types: ["message"], fetch_event_types: [] })).queue_id as string;

describe("event queue size", () => {
  test("a queue whose unread events pass the size is dropped; one whose client takes them is kept", async () => {
    const channelId = await createChannel(org, org.owner, { principals: [org.owner.id, org.member.id] });
    const neverRead = await messageQueue();
    const read = await messageQueue();
    let lastRead = -1;
    for (let i = 0; i < 3; i++) {
      ok(await org.owner.api.post("/messages", { type: "stream", to: channelId, topic: "large", content: `${i} ${"word ".repeat(1_800)}` }));
      const events = await pending(org.member, read, lastRead);
      expect(events.map((event) => event.type)).toEqual(["message"]);
      lastRead = events[0].id;
    }
    expectError(await org.member.api.get("/events", { queue_id: neverRead, last_event_id: -1, dont_block: true }), "BAD_EVENT_QUEUE_ID", 400);
    expect(await pending(org.member, read, lastRead)).toEqual([]);
  });
});
