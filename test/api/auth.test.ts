import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/app";
import { postFrom, type RawResponse } from "../helpers/fromAddress";
import { OWNER, createPerson, expectError, ok, seedOrg, startInitializedServer, type Org, type Person } from "../helpers/seed";

// Logins hash passwords, slowly by design; on a busy machine a test can outlast the 5 s default.
setDefaultTimeout(30_000);

// A small limit so the brute-force protection shows within a test; a window long enough that
// a slow machine cannot age failures out in the middle of one (expiry has its own server).
const FAILURE_LIMIT = 3;
const WINDOW_SECONDS = 60;

/** Endpoints the reference serves without credentials. */
const UNAUTHENTICATED = new Set(["GET /api/v1/server_settings", "POST /api/v1/fetch_api_key"]);

let org: Org;
let deactivatedUser: Person;
let deactivatedBot: Person;
let nextAddress = 10;
let nextPerson = 0;

/**
 * A loopback address no earlier test sent from: failures are also counted per address, and
 * tests must not trip each other's limits.
 */
const freshAddress = () => `127.0.0.${nextAddress++}`;
const freshPerson = () => createPerson(org.owner, org.anon, `Login Person ${String.fromCharCode(65 + nextPerson++)}`);

const fetchApiKey = (username: string, password: string, address = freshAddress()) => postFrom(address, `${org.server.url}/api/v1/fetch_api_key`, { username, password });

const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString("base64")}` });

async function getMe(headers: Record<string, string>) {
  const response = await fetch(`${org.server.url}/api/v1/users/me`, { headers });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

function expectChallenge(response: { headers: Headers }) {
  expect(response.headers.get("www-authenticate")).toBe('Basic realm="parley"');
}

beforeAll(async () => {
  org = await seedOrg({ env: { PARLEY_LOGIN_FAILURE_LIMIT: String(FAILURE_LIMIT), PARLEY_LOGIN_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS) } });
  deactivatedUser = await freshPerson();
  const bot = ok(await org.member.api.post("/bots", { full_name: "Retired Bot", short_name: "retired" }));
  deactivatedBot = { id: bot.user_id, email: bot.email, password: "", apiKey: bot.api_key, api: org.anon.as(bot.email, bot.api_key) };
  ok(await org.owner.api.delete(`/users/${deactivatedUser.id}`));
  ok(await org.member.api.delete(`/bots/${deactivatedBot.id}`));
});
afterAll(() => org.server.dispose());

describe("HTTP Basic authentication", () => {
  test("lets people and bots in with their e-mail and API key, the e-mail in any case", async () => {
    expect(ok(await org.member.api.get("/users/me")).user_id).toBe(org.member.id);
    expect(ok(await org.bot.api.get("/users/me")).user_id).toBe(org.bot.id);
    expect(ok(await getMe(basic(`${org.owner.email.toUpperCase()}:${org.owner.apiKey}`))).user_id).toBe(org.owner.id);
  });

  test("refuses a request without credentials with 401 UNAUTHORIZED and a Basic challenge", async () => {
    const response = await org.anon.get("/users/me");
    expectError(response, "UNAUTHORIZED", 401);
    expectChallenge(response);
  });

  test("refuses other schemes and malformed Basic headers the same way", async () => {
    for (const authorization of [`Bearer ${org.member.apiKey}`, "Basic", "Basic %%%not-base64%%%", `Basic ${Buffer.from("no-colon-here").toString("base64")}`]) {
      const response = await getMe({ authorization });
      expectError(response, "UNAUTHORIZED", 401);
      expectChallenge(response);
    }
  });

  test("refuses a wrong, empty, truncated, over-long or someone else's key, and unknown e-mails, alike", async () => {
    const key = org.member.apiKey;
    const attempts = [
      `${org.member.email}:wrong`,
      `${org.member.email}:`,
      `${org.member.email}:${key.slice(0, -1)}`,
      `${org.member.email}:${key}x`,
      `${org.member.email}:${org.member2.apiKey}`,
      `${org.member.email}:${org.member.password}`,
      `nobody@example.com:${key}`,
      `:${key}`,
    ];
    for (const credentials of attempts) {
      const response = await getMe(basic(credentials));
      expectError(response, "INVALID_API_KEY", 401);
      expect(response.body.msg).toBe("Invalid API key");
      expectChallenge(response);
    }
  });

  test("refuses a deactivated user or bot with USER_DEACTIVATED, and a wrong key for them as any wrong key", async () => {
    for (const gone of [deactivatedUser, deactivatedBot]) {
      expectError(await gone.api.get("/users/me"), "USER_DEACTIVATED", 401);
      expectError(await gone.api.as(gone.email, "wrong").get("/users/me"), "INVALID_API_KEY", 401);
    }
  });

  test("checks credentials before parameters, so an anonymous caller learns nothing about an endpoint", async () => {
    expectError(await org.anon.post("/users", {}), "UNAUTHORIZED", 401);
    expectError(await org.anon.as(org.member.email, "wrong").patch(`/users/${org.member.id}`, { role: "not-a-number" }), "INVALID_API_KEY", 401);
  });

  test("guards every /api/v1 endpoint except the unauthenticated ones", async () => {
    const routes = createApp()
      .routes.filter((route) => route.path.startsWith("/api/v1/") && !UNAUTHENTICATED.has(`${route.method} ${route.path}`))
      .map((route) => ({ method: route.method, path: route.path.replace(/:[a-z_]+/g, "1") }));
    expect(routes.length).toBeGreaterThan(5);
    for (const { method, path } of routes) {
      for (const [headers, code] of [
        [{}, "UNAUTHORIZED"],
        [basic(`${org.member.email}:wrong`), "INVALID_API_KEY"],
      ] as const) {
        const response = await fetch(`${org.server.url}${path}`, { method, headers });
        const body = await response.json();
        expect({ route: `${method} ${path}`, status: response.status, code: body.code }).toEqual({ route: `${method} ${path}`, status: 401, code });
      }
    }
  });
});

describe("POST /fetch_api_key", () => {
  test("trades an e-mail and password for the API key, e-mail and user id, and nothing else", async () => {
    const person = await freshPerson();
    const response = await fetchApiKey(person.email.toUpperCase(), person.password);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ result: "success", msg: "", api_key: person.apiKey, email: person.email, user_id: person.id });
  });

  test("answers a wrong password and an unknown account identically, so accounts cannot be discovered", async () => {
    const person = await freshPerson();
    const wrongPassword = await fetchApiKey(person.email, "not the password");
    const unknown = await fetchApiKey("nobody-here@example.com", "not the password");
    for (const response of [wrongPassword, unknown]) {
      expectError({ status: response.status, body: response.json }, "AUTHENTICATION_FAILED", 401);
      expect(response.json.msg).toBe("Your username or password is incorrect");
    }
    expect(unknown.json).toEqual(wrongPassword.json);
  });

  test("does not let a bot, which has no password, log in", async () => {
    for (const password of ["", "anything at all", org.bot.apiKey]) {
      const response = await fetchApiKey(org.bot.email, password);
      expectError({ status: response.status, body: response.json }, "AUTHENTICATION_FAILED", 401);
    }
  });

  test("tells a deactivated user so only when the password is right", async () => {
    const right = await fetchApiKey(deactivatedUser.email, deactivatedUser.password);
    expectError({ status: right.status, body: right.json }, "USER_DEACTIVATED", 401);
    expect(right.json.api_key).toBeUndefined();
    const wrong = await fetchApiKey(deactivatedUser.email, "not the password");
    expectError({ status: wrong.status, body: wrong.json }, "AUTHENTICATION_FAILED", 401);
  });

  test("refuses missing and over-long parameters as bad requests", async () => {
    expectError(await org.anon.post("/fetch_api_key", { username: OWNER.email }), "BAD_REQUEST", 400);
    expectError(await org.anon.post("/fetch_api_key", { password: OWNER.password }), "BAD_REQUEST", 400);
    expectError(await org.anon.post("/fetch_api_key", { username: OWNER.email, password: "x".repeat(100_000) }), "BAD_REQUEST", 400);
  });
});

describe("brute-force protection of password logins", () => {
  async function failTimes(username: string, times: number, address?: () => string) {
    for (let i = 0; i < times; i++) {
      const response = await fetchApiKey(username, `wrong guess ${i}`, address?.());
      expect(response.status).toBe(401);
    }
  }

  function expectRateLimited(response: RawResponse) {
    expectError({ status: response.status, body: response.json }, "RATE_LIMIT_HIT", 429);
    const retryAfter = response.json["retry-after"];
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(response.headers["retry-after"]).toBe(String(retryAfter));
    expect(response.json.api_key).toBeUndefined();
  }

  test("locks an account after repeated failures from anywhere, refusing even the right password", async () => {
    const target = await freshPerson();
    await failTimes(target.email.toUpperCase(), FAILURE_LIMIT, freshAddress);
    expectRateLimited(await fetchApiKey(target.email, target.password));
    expectRateLimited(await fetchApiKey(target.email, target.password));
    // Its API key keeps working: the lock is on guessing passwords, not on the account.
    expect(ok(await target.api.get("/users/me")).user_id).toBe(target.id);
  });

  test("gives no extra guesses to attempts fired all at once", async () => {
    const target = await freshPerson();
    const responses = await Promise.all(Array.from({ length: 4 * FAILURE_LIMIT }, (_, i) => fetchApiKey(target.email, `parallel guess ${i}`)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(FAILURE_LIMIT);
    expect(statuses.filter((status) => status !== 401).every((status) => status === 429)).toBe(true);
    expectRateLimited(await fetchApiKey(target.email, target.password));
  });

  test("counts failures per address too, whichever accounts they name", async () => {
    const address = freshAddress();
    for (let i = 0; i < FAILURE_LIMIT; i++) expect((await fetchApiKey(`guess-${i}@example.com`, "password", address)).status).toBe(401);
    const bystander = await freshPerson();
    expectRateLimited(await fetchApiKey(bystander.email, bystander.password, address));
    // The same person from another address is not held up.
    expect((await fetchApiKey(bystander.email, bystander.password)).status).toBe(200);
  });

  test("keeps an account's failures when another account logs in successfully", async () => {
    const target = await freshPerson();
    const other = await freshPerson();
    await failTimes(target.email, FAILURE_LIMIT - 1, freshAddress);
    expect((await fetchApiKey(other.email, other.password)).status).toBe(200);
    await failTimes(target.email, 1, freshAddress);
    expectRateLimited(await fetchApiKey(target.email, target.password));
  });

  test("forgives an account's own failures once it logs in, but never an address's", async () => {
    const target = await freshPerson();
    const address = freshAddress();
    await failTimes(target.email, FAILURE_LIMIT - 1, () => address);
    expect((await fetchApiKey(target.email, target.password, address)).status).toBe(200);
    await failTimes(target.email, FAILURE_LIMIT - 1, freshAddress);
    expect((await fetchApiKey(target.email, target.password)).status).toBe(200);
    await failTimes(`someone-else@example.com`, 1, () => address);
    expectRateLimited(await fetchApiKey(target.email, target.password, address));
  });

  test("lets the account in again once the window has moved on", async () => {
    const window = 2;
    const server = await startInitializedServer({ env: { PARLEY_LOGIN_FAILURE_LIMIT: "1", PARLEY_LOGIN_FAILURE_WINDOW_SECONDS: String(window) } });
    try {
      const attempt = (password: string) => postFrom("127.0.0.1", `${server.url}/api/v1/fetch_api_key`, { username: OWNER.email, password });
      expect((await attempt("wrong guess")).status).toBe(401);
      const refused = await attempt(OWNER.password);
      expectRateLimited(refused);
      expect(refused.json["retry-after"]).toBeLessThanOrEqual(window);
      await Bun.sleep(refused.json["retry-after"] * 1000 + 100);
      const response = await attempt(OWNER.password);
      expect(response.status).toBe(200);
      expect(response.json.email).toBe(OWNER.email);
    } finally {
      await server.dispose();
    }
  });
});
