import { statfsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { postFrom } from "../helpers/fromAddress";
import { expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { directMessage, sendOk } from "../helpers/sending";
import { queryServer } from "../helpers/channels";
import { ON_POSTGRES } from "../helpers/testDatabase";

/** GET /server/status (a Parley addition): the server's figures and recent warnings, for administrators. */

let org: Org;

beforeAll(async () => {
  org = await seedOrg();
});
afterAll(() => org.server.dispose());

const status = async (person: Person = org.admin) => ok(await person.api.get("/server/status"));

/** The size of the server's database on PostgreSQL, as PostgreSQL counts it. */
const pgDatabaseSize = () => queryServer<{ size: number }>(org.server, { sqlite: "", postgres: "SELECT pg_database_size(current_database()) AS size" })[0].size;

async function waitFor<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** Signs in through the sign-in form and returns what a browser would then send. */
async function browserSession(person: Person, address: string) {
  const response = await postFrom(address, `${org.server.url}/login`, { username: person.email, password: person.password });
  expect(response.status).toBe(303);
  const cookies = (response.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]);
  const csrf = cookies.find((cookie) => cookie.startsWith("parley_csrf="))!.slice("parley_csrf=".length);
  return { cookie: cookies.join("; "), "x-csrf-token": csrf };
}

describe("GET /server/status", () => {
  test("answers administrators and owners with every figure", async () => {
    for (const person of [org.admin, org.owner]) {
      const body = await status(person);
      expect(Object.keys(body).sort()).toEqual(["backups", "counts", "data_dir", "database", "disk", "event_queues", "feature_level", "msg", "outbox", "recent_warnings", "result", "started_at", "uploads", "uptime_seconds", "version"]);
      const settings = ok(await org.anon.get("/server_settings"));
      expect(body.version).toBe(settings.zulip_version);
      expect(body.feature_level).toBe(settings.zulip_feature_level);
      expect(body.data_dir).toBe(org.server.dataDir);
      expect(body.started_at).toBeLessThanOrEqual(Date.now() / 1000);
      expect(Math.abs(body.uptime_seconds - (Math.floor(Date.now() / 1000) - body.started_at))).toBeLessThanOrEqual(1);
      expect(body.database.size_bytes).toBeGreaterThan(0);
      if (ON_POSTGRES) {
        // The database as PostgreSQL counts it (which the server's own writes may grow a little
        // meanwhile); its write-ahead log is the PostgreSQL server's, not this database's.
        expect(body.database).toEqual({ store: "postgresql", size_bytes: expect.any(Number), wal_bytes: null });
        expect(Math.abs(body.database.size_bytes - pgDatabaseSize())).toBeLessThan(2 ** 20);
      } else {
        expect(body.database.store).toBe("sqlite");
        expect(body.database.wal_bytes).toBeGreaterThanOrEqual(0);
        expect(body.database.size_bytes).toBeGreaterThanOrEqual(body.database.wal_bytes);
      }
      expect(body.uploads).toEqual({ files: 0, size_bytes: 0 });
      // The test's data dir is on this machine's disk (test/diskFull.test.ts fills a small one).
      const disk = statfsSync(org.server.dataDir);
      expect(Object.keys(body.disk).sort()).toEqual(["free_bytes", "full", "low", "size_bytes"]);
      expect(body.disk.size_bytes).toBe(disk.blocks * disk.bsize);
      expect(Math.abs(body.disk.free_bytes - disk.bavail * disk.bsize)).toBeLessThan(256 * 2 ** 20);
      expect(body.disk.full).toBe(false);
      // No scheduled backup has run yet (test/backup.test.ts runs them).
      expect(body.backups).toEqual({ last_success: null, last_failure: null });
      // The six people seedOrg makes, and the member's bot (the built-in notification bot is not counted).
      expect(body.counts).toMatchObject({ users: 6, bots: 1 });
      expect(Object.keys(body.event_queues).sort()).toEqual(["clients_polling", "events_pending", "events_published", "queues"]);
      expect(Object.keys(body.outbox).sort()).toEqual(["by_kind", "failed", "pending"]);
      expect(Array.isArray(body.recent_warnings)).toBe(true);
      for (const warning of body.recent_warnings) {
        expect(Object.keys(warning).sort()).toEqual(["level", "message", "time"]);
        expect(["warn", "error"]).toContain(warning.level);
      }
    }
  });

  test("GET /health and GET /metrics answer on either store, with the data directory's disk", async () => {
    // On PostgreSQL there is no database file to look for: the database answers a query, and the
    // data directory (uploads, event queues) is there and writable.
    const health = await fetch(`${org.server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });
    const metrics = await (await fetch(`${org.server.url}/metrics`)).text();
    const free = Number(/^parley_data_disk_free_bytes (\d+)$/m.exec(metrics)?.[1]);
    expect(Math.abs(free - (await status()).disk.free_bytes)).toBeLessThan(256 * 2 ** 20);
  });

  test("refuses moderators, members, guests and bots, with their API key or a browser session", async () => {
    for (const person of [org.moderator, org.member, org.guest, org.bot]) {
      const refused = await person.api.get("/server/status");
      expectError(refused, "UNAUTHORIZED_PRINCIPAL", 400);
      expect(refused.body.msg).toBe("Must be an organization administrator");
    }
    // A member forging the console's request with their own session and its CSRF value.
    const headers = await browserSession(org.member, "127.0.0.31");
    const forged = await fetch(`${org.server.url}/api/v1/server/status`, { headers });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ result: "error", code: "UNAUTHORIZED_PRINCIPAL" });
    // The same session of an administrator is answered.
    const admin = await fetch(`${org.server.url}/api/v1/server/status`, { headers: await browserSession(org.admin, "127.0.0.32") });
    expect((await admin.json()).result).toBe("success");
    expectError(await org.anon.get("/server/status"), "UNAUTHORIZED", 401);
  });

  test("names parameters it does not take, as every endpoint does", async () => {
    const body = ok(await org.admin.api.get("/server/status", { verbose: true }));
    expect(body.ignored_parameters_unsupported).toEqual(["verbose"]);
  });

  test("counts a message as soon as it is sent", async () => {
    const before = (await status()).counts;
    await sendOk(org.member, directMessage([org.member2.id], "counted"));
    const after = (await status()).counts;
    expect(after.messages).toBe(before.messages + 1);
    expect(after.users).toBe(before.users);
  });

  test("follows event queues: registered, events waiting in them, and long-polls parked", async () => {
    const before = (await status()).event_queues;
    const registered = ok(await org.member2.api.post("/register", { event_types: ["message"] }));
    const afterRegister = (await status()).event_queues;
    expect(afterRegister.queues).toBe(before.queues + 1);

    await sendOk(org.member, directMessage([org.member2.id], "for the queue"));
    const afterSend = (await status()).event_queues;
    expect(afterSend.events_published).toBeGreaterThan(afterRegister.events_published);
    expect(afterSend.events_pending).toBe(afterRegister.events_pending + 1);

    // Fetching acknowledges nothing yet; the next poll acknowledges the message and parks.
    const fetched = ok(await org.member2.api.get("/events", { queue_id: registered.queue_id, last_event_id: registered.last_event_id, dont_block: true }));
    const lastId = fetched.events.at(-1).id;
    const poll = new AbortController();
    const url = new URL(`/api/v1/events?queue_id=${registered.queue_id}&last_event_id=${lastId}`, org.server.url);
    const parked = fetch(url, { headers: { authorization: `Basic ${Buffer.from(`${org.member2.email}:${org.member2.apiKey}`).toString("base64")}` }, signal: poll.signal }).catch(() => null);
    const polling = await waitFor(async () => {
      const figures = (await status()).event_queues;
      return figures.clients_polling === afterSend.clients_polling + 1 && figures;
    }, "the long-poll to park");
    expect(polling.events_pending).toBe(afterSend.events_pending - 1);
    poll.abort();
    await parked;
    ok(await org.member2.api.delete("/events", { queue_id: registered.queue_id }));
    expect((await status()).event_queues.queues).toBe(before.queues);
  });

  test("shows a warning logged since start, and the outbox item that gave up", async () => {
    const before = await status();
    // A name that does not resolve is refused, so its one notification is given up with a warning.
    const bot = ok(await org.member.api.post("/bots", { full_name: "Unreachable Hook", short_name: "unreachable", bot_type: 3, payload_url: JSON.stringify("http://unreachable.invalid/hook"), interface_type: 1 }));
    await sendOk(org.member, directMessage([bot.user_id], "are you there?"));
    const after = await waitFor(async () => {
      const body = await status();
      return body.recent_warnings.some((warning: any) => warning.message.includes("outbox: gave up item") && warning.message.includes("outgoing_webhook")) && body;
    }, "the outbox's warning");
    const warning = after.recent_warnings.find((entry: any) => entry.message.includes("outbox: gave up item"));
    expect(warning.level).toBe("warn");
    expect(warning.time).toBeGreaterThanOrEqual(before.started_at);
    expect(warning.time).toBeLessThanOrEqual(Date.now() / 1000);
    // Newest first.
    const times = after.recent_warnings.map((entry: any) => entry.time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(after.outbox.failed).toBe(before.outbox.failed + 1);
    // The owner's notice is a direct message, whose notification item follows a moment later:
    // nothing stays pending once it has been through.
    const settled = await waitFor(async () => {
      const body = await status();
      return body.outbox.pending === 0 && body;
    }, "the outbox to have nothing pending");
    expect(settled.outbox.failed).toBe(before.outbox.failed + 1);
    expect(after.counts.bots).toBe(before.counts.bots + 1);
  });
});
