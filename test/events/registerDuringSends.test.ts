import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ok, seedOrg, type Org } from "../helpers/seed";
import { SEED_TIMEOUT_MS, pending, type Event, type State } from "./support";

// "Never miss an event": a client that registers while messages are being sent gets every one
// of them, either in its snapshot (here: unread_msgs) or as an event in its new queue. The
// queue is made first and the snapshot read after it, so what commits in between is in both,
// which clients tolerate; what must not happen is a message in neither. Sends are group-
// committed and the snapshot is read on its own connection in slices, so this is the place
// where an await in the wrong spot would show.

let org: Org;

beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const SENDS = 240;
const IN_FLIGHT = 12;
const REGISTRATIONS = 8;

/** Every event of the queue, read until a dont_block poll brings nothing new. */
async function drain(queueId: string): Promise<Event[]> {
  const all: Event[] = [];
  for (;;) {
    const events = await pending(org.member2, queueId, all.at(-1)?.id ?? -1);
    if (events.length === 0) return all;
    all.push(...events);
  }
}

const unreadIds = (state: State): number[] => state.unread_msgs.pms.flatMap((entry: State) => entry.unread_message_ids);

describe("registering while messages are sent", () => {
  test("every message is in the snapshot or in the queue of every registration", async () => {
    const sent: number[] = [];
    let next = 0;
    const sender = async () => {
      while (next < SENDS) {
        const n = next++;
        const answer = ok(await org.member.api.post("/messages", { type: "direct", to: JSON.stringify([org.member2.id]), content: `flood ${n}` }));
        sent.push(answer.id);
      }
    };
    const registrations: Array<Promise<State>> = [];
    const registering = (async () => {
      for (let i = 0; i < REGISTRATIONS; i++) {
        // Spread over the flood: the first ones while it runs hardest.
        await new Promise((resolve) => setTimeout(resolve, 15 * i));
        registrations.push(org.member2.api.post("/register", { fetch_event_types: ["message", "update_message_flags"], event_types: ["message"] }).then(ok));
      }
    })();
    await Promise.all([...Array.from({ length: IN_FLIGHT }, sender), registering]);
    const states = await Promise.all(registrations);
    // The flood had not ended when the first registration was answered, or this proves little.
    expect(Math.min(...states.map((state) => state.max_message_id))).toBeLessThan(Math.max(...sent));
    for (const state of states) {
      const inSnapshot = new Set(unreadIds(state));
      const inQueue = new Set((await drain(state.queue_id)).filter((event) => event.type === "message").map((event) => event.message.id as number));
      const missed = sent.filter((id) => !inSnapshot.has(id) && !inQueue.has(id));
      expect(missed).toEqual([]);
      // Anything in the queue was sent after the snapshot began, or at the same time.
      for (const id of inQueue) expect(id).toBeGreaterThan(Math.min(...sent) - 1);
    }
  }, 60_000);
});
