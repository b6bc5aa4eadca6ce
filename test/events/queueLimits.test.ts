import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../helpers/client";
import { OWNER, expectError, login, ok, seedOrg, startInitializedServer, type Org, type Person } from "../helpers/seed";
import { SEED_TIMEOUT_MS } from "./support";

/**
 * Event queues are capped per user and per server (issue 11): registering past a cap drops
 * the longest-idle queue (the user's own, or anyone's for the server cap), as idle collection
 * would, and its client gets BAD_EVENT_QUEUE_ID. A queue with a parked long-poll is in use.
 */

const PER_USER = 3;
const TOTAL = 8;

let org: Org;

beforeAll(async () => {
  org = await seedOrg({ env: { PARLEY_MAX_QUEUES_PER_USER: String(PER_USER), PARLEY_MAX_QUEUES_TOTAL: String(TOTAL) } });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

interface Queue {
  person: Person;
  id: string;
}

/** Every queue a test registered, deleted after it so the next starts under the server cap. */
let registered: Queue[] = [];
/** Long-polls a test parked; each ends when its queue is deleted or dropped. */
let parked: Array<Promise<unknown>> = [];

afterEach(async () => {
  await Promise.all(registered.map((queue) => queue.person.api.delete("/events", { queue_id: queue.id })));
  await Promise.all(parked);
  registered = [];
  parked = [];
});

async function registerQueue(person: Person): Promise<Queue> {
  const queue = { person, id: ok(await person.api.post("/register", { event_types: ["heartbeat"], fetch_event_types: [] })).queue_id as string };
  registered.push(queue);
  // Activity is ordered by the millisecond; a pause keeps one step from sharing another's.
  await Bun.sleep(5);
  return queue;
}

const poke = (queue: Queue) => queue.person.api.get("/events", { queue_id: queue.id, dont_block: true });

async function touch(queue: Queue) {
  ok(await poke(queue));
  await Bun.sleep(5);
}

async function expectAlive(...queues: Queue[]) {
  for (const queue of queues) ok(await poke(queue));
}

async function expectDropped(queue: Queue) {
  expectError(await poke(queue), "BAD_EVENT_QUEUE_ID", 400);
}

/** A long-poll left waiting on the queue; `answer` settles once one comes. */
async function parkLongPoll(queue: Queue) {
  const answer = queue.person.api.get("/events", { queue_id: queue.id, last_event_id: -1 });
  parked.push(answer);
  // Parked once the server has taken the request; nothing else answers it before the heartbeat.
  await Bun.sleep(100);
  return { answer };
}

/** Whether the long-poll is still waiting a moment from now. */
const stillWaiting = async (answer: Promise<unknown>) => (await Promise.race([answer.then(() => false), Bun.sleep(200).then(() => true)])) === true;

describe("the per-user cap", () => {
  test("registering one queue too many drops that user's longest-idle queue, by last use rather than by age", async () => {
    const [first, second, third] = [await registerQueue(org.member), await registerQueue(org.member), await registerQueue(org.member)];
    await touch(first);
    const fourth = await registerQueue(org.member);
    await expectDropped(second);
    // Each check is a use: first, third, fourth were used in that order, so first goes next.
    await expectAlive(first, third, fourth);
    const fifth = await registerQueue(org.member);
    await expectDropped(first);
    await expectAlive(third, fourth, fifth);
  });

  test("a queue with a parked long-poll is not the victim, even when it is the oldest", async () => {
    const [first, second, third] = [await registerQueue(org.member), await registerQueue(org.member), await registerQueue(org.member)];
    const waiting = await parkLongPoll(first);
    await registerQueue(org.member);
    await expectDropped(second);
    await expectAlive(third);
    expect(await stillWaiting(waiting.answer)).toBe(true);
  });

  test("when every queue of the user is long-polling, the one waiting longest goes, and its long-poll gets BAD_EVENT_QUEUE_ID", async () => {
    const queues = [await registerQueue(org.member), await registerQueue(org.member), await registerQueue(org.member)];
    const polls = [];
    for (const queue of queues) polls.push((await parkLongPoll(queue)).answer);
    await registerQueue(org.member);
    expectError(await polls[0], "BAD_EVENT_QUEUE_ID", 400);
    await expectDropped(queues[0]);
    expect(await stillWaiting(Promise.race(polls.slice(1)))).toBe(true);
  });

  test("one user's registrations never touch another user's queues", async () => {
    const theirs = [await registerQueue(org.member2), await registerQueue(org.member2)];
    // The other user's queues are the longest idle on the server, and stay.
    for (let i = 0; i < 3 * PER_USER; i++) await registerQueue(org.member);
    await expectAlive(...theirs);
  });
});

describe("the per-server cap", () => {
  test("past it the longest-idle queue anywhere goes, and only that one", async () => {
    const people = [org.owner, org.admin, org.moderator, org.member2];
    const queues: Queue[] = [];
    for (let i = 0; i < TOTAL; i++) queues.push(await registerQueue(people[i % people.length]));
    await expectAlive(...queues);
    // Used since, all but the second (admin's), which is now the longest idle on the server.
    await touch(queues[0]);
    for (const queue of queues.slice(2)) await touch(queue);

    const newcomer = await registerQueue(org.member);
    await expectDropped(queues[1]);
    await expectAlive(newcomer, queues[0], ...queues.slice(2));
  });

  test("a parked long-poll keeps its queue even when it is the oldest on the server", async () => {
    const people = [org.owner, org.admin, org.moderator, org.member2];
    const queues: Queue[] = [];
    for (let i = 0; i < TOTAL; i++) queues.push(await registerQueue(people[i % people.length]));
    const waiting = await parkLongPoll(queues[0]);

    await registerQueue(org.member);
    await registerQueue(org.member);
    await expectDropped(queues[1]);
    await expectDropped(queues[2]);
    await expectAlive(...queues.slice(3));
    expect(await stillWaiting(waiting.answer)).toBe(true);
  });
});

describe("idle collection", () => {
  test("the periodic sweep removes queues idle past the timeout without anyone touching them, and spares used and long-polling ones", async () => {
    // Its own server: a one-second timeout (swept every 250 ms), and debug logs, which name each removal.
    const server = await startInitializedServer({ env: { PARLEY_QUEUE_TIMEOUT_SECONDS: "1", PARLEY_LOG_LEVEL: "debug" } });
    try {
      const owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
      const [idleA, idleB, used, polling] = [await registerQueue(owner), await registerQueue(owner), await registerQueue(owner), await registerQueue(owner)];
      const waiting = (await parkLongPoll(polling)).answer;
      // This server cleans up after itself; the cleanup after each test is for the shared one.
      registered = [];
      parked = [];
      const until = Date.now() + 2_000;
      while (Date.now() < until) {
        ok(await poke(used));
        await Bun.sleep(200);
      }
      const removedIdle = (queue: Queue) => server.output.includes(`event queue ${queue.id} of user ${owner.id} removed: idle`);
      expect([removedIdle(idleA), removedIdle(idleB), removedIdle(used), removedIdle(polling)]).toEqual([true, true, false, false]);
      expect(await stillWaiting(waiting)).toBe(true);
      ok(await owner.api.delete("/events", { queue_id: polling.id }));
      expectError(await waiting, "BAD_EVENT_QUEUE_ID", 400);
    } finally {
      await server.dispose();
    }
  });
});
