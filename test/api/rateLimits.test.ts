import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { createChannel, queryServer } from "../helpers/channels";
import { ApiClient, type ApiResponse } from "../helpers/client";
import { type Org, type Person, createPerson, login, ok, OWNER, seedOrg, startInitializedServer } from "../helpers/seed";
import { basicAuth } from "../helpers/uploads";
import { runParley, tempDataDir, type TestServer } from "../helpers/server";
import { SEED_TIMEOUT_MS } from "../events/support";
import { routeTable } from "../fuzz/routeCases";

/**
 * The request rate limits (http/requestLimits.ts): per account over every API request, per
 * client address without credentials, and the stricter buckets for sends, uploads, event-queue
 * registration and sign-ups. A refusal is the reference's 429 and stores nothing.
 */

const REFUSED_BODY = { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": expect.any(Number) };

const limitHeaders = (response: { headers: Headers }) => ({
  limit: response.headers.get("x-ratelimit-limit"),
  remaining: response.headers.get("x-ratelimit-remaining"),
  reset: Number(response.headers.get("x-ratelimit-reset")),
});

/** A 429 as the reference sends it: the body, Retry-After equal to the body's, and the X-RateLimit-* headers with nothing remaining. */
function expectRefused(response: ApiResponse, limit: number) {
  expect({ status: response.status, body: response.body }).toEqual({ status: 429, body: REFUSED_BODY });
  const seconds = response.body["retry-after"] as number;
  expect(Number.isInteger(seconds) && seconds >= 1).toBe(true);
  expect(response.headers.get("retry-after")).toBe(String(seconds));
  const headers = limitHeaders(response);
  expect({ limit: headers.limit, remaining: headers.remaining }).toEqual({ limit: String(limit), remaining: "0" });
  // No sooner than the refused request could go through; later if another bucket it spent from
  // refills later (the reference's reset is the latest of them). Every window here is at most 600 s.
  const now = Date.now() / 1000;
  expect(headers.reset).toBeGreaterThanOrEqual(Math.floor(now + seconds - 1));
  expect(headers.reset).toBeLessThanOrEqual(Math.ceil(now) + 600);
}

/** Requests until one is refused (at most `limit` + 1), answering how many were accepted and the refusal. */
async function untilRefused(limit: number, send: () => Promise<ApiResponse>): Promise<{ accepted: number; refusal: ApiResponse }> {
  for (let accepted = 0; accepted <= limit; accepted++) {
    const response = await send();
    if (response.status === 429) return { accepted, refusal: response };
  }
  throw new Error(`${limit + 1} requests and none refused`);
}

const messagesIn = (server: TestServer, topic: string) => queryServer<{ n: number }>(server, "SELECT count(*) AS n FROM messages WHERE topic = ?", topic)[0]!.n;
const uploadsOf = (server: TestServer, person: Person) => queryServer<{ n: number }>(server, "SELECT count(*) AS n FROM attachments WHERE owner_id = ?", person.id)[0]!.n;

async function upload(org: Org, person: Person, bytes: number): Promise<ApiResponse> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes).fill(7)]), `upload-${bytes}.bin`);
  const response = await fetch(new URL("/api/v1/user_uploads", org.server.url), { method: "POST", headers: basicAuth(person), body: form });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

describe("buckets with long windows", () => {
  let org: Org;
  let channel: number;
  let people = 0;
  const person = () => createPerson(org.owner, org.anon, `Limited ${++people}`);
  beforeAll(async () => {
    org = await seedOrg({
      rateLimits: true,
      env: {
        PARLEY_RATE_LIMIT_API: "50/600",
        PARLEY_RATE_LIMIT_SENDS: "3/600",
        PARLEY_RATE_LIMIT_UPLOADS: "2/600",
        PARLEY_RATE_LIMIT_UPLOAD_MIB: "1/600",
        PARLEY_RATE_LIMIT_REGISTER: "2/600",
      },
    });
    channel = await createChannel(org, org.owner);
  }, SEED_TIMEOUT_MS);
  afterAll(() => org.server.dispose());

  test("an ordinary answer tells the account's limit, what remains of it, and when it is full again", async () => {
    const reader = await person();
    const response = await reader.api.get("/users/me");
    expect(response.status).toBe(200);
    const headers = limitHeaders(response);
    expect({ limit: headers.limit, remaining: headers.remaining }).toEqual({ limit: "50", remaining: "49" });
    // One request of 50 refills in a fiftieth of the window.
    expect(headers.reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 11);
    expect(headers.reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 13);
  });

  test("sends beyond the sends bucket are refused with the reference's 429, and not stored", async () => {
    const sender = await person();
    ok(await sender.api.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: queryServer<{ name: string }>(org.server, "SELECT name FROM channels WHERE id = ?", channel)[0]!.name }]) }));
    let sent = 0;
    const send = () => sender.api.post("/messages", { type: "stream", to: channel, topic: "flood", content: `message ${++sent}` });
    const { accepted, refusal } = await untilRefused(3, send);
    expect(accepted).toBe(3);
    expectRefused(refusal, 3);
    expectRefused(await send(), 3);
    expect(messagesIn(org.server, "flood")).toBe(3);
    // Scheduling a message is a send too.
    const scheduled = await sender.api.post("/scheduled_messages", { type: "stream", to: channel, topic: "later", content: "x", scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600 });
    expectRefused(scheduled, 3);
    expect(queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM scheduled_messages")[0]!.n).toBe(0);
  });

  test("uploads beyond the bucket's files are refused and not stored", async () => {
    const uploader = await person();
    expect((await upload(org, uploader, 1000)).status).toBe(200);
    expect((await upload(org, uploader, 1000)).status).toBe(200);
    expectRefused(await upload(org, uploader, 1000), 2);
    expect(uploadsOf(org.server, uploader)).toBe(2);
  });

  test("uploads beyond the bucket's MiB are refused and not stored", async () => {
    const uploader = await person();
    expect((await upload(org, uploader, 600 * 1024)).status).toBe(200);
    const refusal = await upload(org, uploader, 600 * 1024);
    expect({ status: refusal.status, body: refusal.body }).toEqual({ status: 429, body: REFUSED_BODY });
    expect(refusal.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(uploadsOf(org.server, uploader)).toBe(1);
  });

  test("registering event queues beyond the bucket is refused, and makes no queue", async () => {
    const registering = await person();
    const queues = async () => ok(await org.admin.api.get("/server/status")).event_queues.queues as number;
    const before = await queues();
    ok(await registering.api.post("/register", { fetch_event_types: ["realm"] }));
    ok(await registering.api.post("/register", { fetch_event_types: ["realm"] }));
    expectRefused(await registering.api.post("/register", { fetch_event_types: ["realm"] }), 2);
    expect(await queues()).toBe(before + 2);
  });

  test("one account's flood limits that account only; its long-poll is counted apart", async () => {
    const flooder = await person();
    const bystander = await person();
    const { queue_id } = ok(await flooder.api.post("/register", { fetch_event_types: ["realm"] }));
    const { accepted, refusal } = await untilRefused(50, () => flooder.api.get("/users/me"));
    expect(accepted).toBe(49);
    expectRefused(refusal, 50);
    expect((await bystander.api.get("/users/me")).status).toBe(200);
    expect((await org.owner.api.get("/users/me")).status).toBe(200);
    const poll = await flooder.api.get("/events", { queue_id, dont_block: true });
    expect(poll.status).toBe(200);
    expect(poll.headers.get("x-ratelimit-limit")).toBe("600");
  });
});

describe("short windows and client addresses", () => {
  let server: TestServer;
  let anon: ApiClient;
  let owner: Person;
  beforeAll(async () => {
    server = await startInitializedServer({
      rateLimits: true,
      env: { PARLEY_RATE_LIMIT_SENDS: "2/2", PARLEY_RATE_LIMIT_ADDRESS: "8/600", PARLEY_RATE_LIMIT_SIGNUPS: "1/600" },
    });
    anon = new ApiClient(server.url);
    owner = await login(anon, OWNER.email, OWNER.password);
  }, SEED_TIMEOUT_MS);
  afterAll(() => server.dispose());

  test("after the Retry-After a refused send goes through", async () => {
    const channel = ok(await owner.api.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "retry" }]) }));
    expect(channel.result).toBe("success");
    const send = () => owner.api.post("/messages", { type: "stream", to: "retry", topic: "again", content: "hello" });
    const { accepted, refusal } = await untilRefused(2, send);
    expect(accepted).toBe(2);
    expectRefused(refusal, 2);
    await Bun.sleep(refusal.body["retry-after"] * 1000);
    expect((await send()).status).toBe(200);
    expect(messagesIn(server, "again")).toBe(3);
  });

  test("sign-ups from one address beyond the bucket are refused, and make no account", async () => {
    const { invite_link } = ok(await owner.api.post("/invites/multiuse", { invite_expires_in_minutes: 60, invite_as: 400, stream_ids: "[]" }));
    const join = (name: string) =>
      fetch(new URL(new URL(invite_link).pathname, server.url), { method: "POST", redirect: "manual", body: new URLSearchParams({ email: `${name}@example.com`, full_name: name, password: `${name}-password-long` }) });
    expect((await join("first")).status).toBe(303);
    const refused = await join("second");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(REFUSED_BODY);
    expect(queryServer<{ email: string }>(server, "SELECT email FROM users WHERE email IN ('first@example.com', 'second@example.com')").map((row) => row.email)).toEqual(["first@example.com"]);
  });

  test("requests without credentials are limited by address; accounts at that address are not", async () => {
    const { refusal } = await untilRefused(8, () => anon.get("/server_settings"));
    expectRefused(refusal, 8);
    expectRefused(await anon.post("/fetch_api_key", { username: OWNER.email, password: OWNER.password }), 8);
    // Wrong credentials count against the address, as no credentials do.
    expectRefused(await anon.as(OWNER.email, "not-the-key").get("/users/me"), 8);
    expect((await owner.api.get("/users/me")).status).toBe(200);
  });
});

test("no API route and no form escapes the limits", async () => {
  const server = await startInitializedServer({ rateLimits: true, env: { PARLEY_RATE_LIMIT_API: "1/600", PARLEY_RATE_LIMIT_EVENTS: "1/600", PARLEY_RATE_LIMIT_ADDRESS: "1/600" } });
  try {
    const anon = new ApiClient(server.url);
    // The address's one request and the account's one request and long-poll, spent.
    const owner = await login(anon, OWNER.email, OWNER.password);
    await owner.api.get("/users/me");
    await owner.api.get("/events", { queue_id: "none" });
    const counted = routeTable().filter((route) => route.path.startsWith("/api/v1/") || !["GET", "HEAD"].includes(route.method));
    expect(counted.length).toBeGreaterThan(100);
    const escaped: string[] = [];
    for (const route of counted) {
      const url = new URL(route.path.replace(/:\w+/g, "1").replace("*", "x"), server.url);
      for (const [who, headers] of [
        ["nobody", {}],
        ["owner", basicAuth(owner)],
      ] as const) {
        const response = await fetch(url, { method: route.method, headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, body: route.method === "GET" || route.method === "HEAD" ? undefined : "" });
        if (response.status !== 429) escaped.push(`${route.method} ${route.path} as ${who}: ${response.status}`);
      }
    }
    expect(escaped).toEqual([]);
    // Pages and files are not API requests.
    expect((await fetch(new URL("/login", server.url))).status).toBe(200);
  } finally {
    await server.dispose();
  }
}, 60_000);

test("a malformed limit stops the start with a clear message", () => {
  const dataDir = tempDataDir();
  for (const [name, value, message] of [
    ["PARLEY_RATE_LIMIT_SENDS", "60 per minute", "PARLEY_RATE_LIMIT_SENDS must be COUNT/SECONDS such as 200/60 (200 in any 60 seconds), or off; got '60 per minute'"],
    ["PARLEY_RATE_LIMIT_API", "0/60", "PARLEY_RATE_LIMIT_API must be COUNT/SECONDS"],
    ["PARLEY_RATE_LIMITS", "sometimes", "PARLEY_RATE_LIMITS must be on or off, got 'sometimes'"],
  ]) {
    const result = runParley(["serve", "--init", "--data-dir", dataDir, "--port", "0"], { env: { [name]: value } });
    expect({ name, exitCode: result.exitCode, said: result.stderr.includes(message) }).toEqual({ name, exitCode: 1, said: true });
  }
  rmSync(dataDir, { recursive: true, force: true });
});
