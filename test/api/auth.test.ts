import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/app";
import { postFrom } from "../helpers/fromAddress";
import { OWNER, createPerson, expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";

// Logins hash passwords, slowly by design; on a busy machine a test can outlast the 5 s default.
setDefaultTimeout(30_000);

/** Endpoints the reference serves without credentials. */
const UNAUTHENTICATED = new Set(["GET /api/v1/server_settings", "POST /api/v1/fetch_api_key"]);

let org: Org;
let deactivatedUser: Person;
let deactivatedBot: Person;
let nextAddress = 10;
let nextPerson = 0;

/**
 * A loopback address no earlier test sent from, so these tests' wrong passwords never add up to
 * a lockout (test/api/loginLockout.test.ts tests those).
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
  org = await seedOrg();
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
