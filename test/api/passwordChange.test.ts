import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { postFrom } from "../helpers/fromAddress";
import { createPerson, expectError, login, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { sessionRequest, signInSession } from "../helpers/sessionClient";
import { SEED_TIMEOUT_MS } from "../events/support";

/**
 * PATCH /settings with old_password and new_password: the old one must be the caller's, the
 * new one long enough; wrong guesses count against the sign-in limits; the caller's other
 * browser sessions end and the one the change was made in stays.
 */

let org: Org;
let people = 0;

beforeAll(async () => {
  // A small per-address limit, so the rate-limit test needs few guesses.
  org = await seedOrg({ env: { PARLEY_LOGIN_FAILURE_LIMIT: "4" } });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

/** A person of their own for each test: password changes and lockouts must not leak between tests. */
const newPerson = () => createPerson(org.owner, org.anon, `Pat Changer ${++people}`);

const canSignIn = async (person: Pick<Person, "email">, password: string) => (await org.anon.post("/fetch_api_key", { username: person.email, password })).status === 200;

describe("changing one's password", () => {
  test("with the right old password: the new one works, the old one no longer does", async () => {
    const person = await newPerson();
    const body = ok(await person.api.patch("/settings", { old_password: person.password, new_password: "a brand new password" }));
    expect(body).toEqual({ result: "success", msg: "" });
    expect(await canSignIn(person, "a brand new password")).toBe(true);
    expect(await canSignIn(person, person.password)).toBe(false);
    // The API key is not a password: it keeps working.
    ok(await person.api.get("/users/me"));
  });

  test("from a browser session: that session stays, the person's other sessions end, other people's stay", async () => {
    const person = await newPerson();
    const here = await signInSession(org.server.url, person);
    const elsewhere = await signInSession(org.server.url, person);
    const someoneElse = await signInSession(org.server.url, org.member2);
    ok(await sessionRequest(here, "PATCH", "/settings", { old_password: person.password, new_password: "changed in a browser" }));
    expect(ok(await sessionRequest(here, "GET", "/users/me")).user_id).toBe(person.id);
    expectError(await sessionRequest(elsewhere, "GET", "/users/me"), "UNAUTHORIZED", 401);
    ok(await sessionRequest(someoneElse, "GET", "/users/me"));
    const sessions = ok(await sessionRequest(here, "GET", "/users/me/sessions")).sessions;
    expect(sessions.map((session: { is_current: boolean }) => session.is_current)).toEqual([true]);
  });

  test("with the API key: every browser session of the person ends", async () => {
    const person = await newPerson();
    const browser = await signInSession(org.server.url, person);
    ok(await person.api.patch("/settings", { old_password: person.password, new_password: "changed by a program" }));
    expectError(await sessionRequest(browser, "GET", "/users/me"), "UNAUTHORIZED", 401);
  });

  test("together with other settings, all change in one request", async () => {
    const person = await newPerson();
    ok(await person.api.patch("/settings", { old_password: person.password, new_password: "with a new name too", full_name: "Pat Renamed", enter_sends: true }));
    const me = ok(await person.api.get("/users/me"));
    expect(me.full_name).toBe("Pat Renamed");
    expect(await canSignIn(person, "with a new name too")).toBe(true);
  });
});

describe("refusals", () => {
  test("a wrong old password: the reference's error, and nothing changes", async () => {
    const person = await newPerson();
    const browser = await signInSession(org.server.url, person);
    expectError(await person.api.patch("/settings", { old_password: "not my password", new_password: "whatever it is", full_name: "Not Renamed" }), "BAD_REQUEST");
    const response = await person.api.patch("/settings", { old_password: "still not it", new_password: "whatever it is" });
    expect(response.body.msg).toBe("Wrong password!");
    expect(ok(await person.api.get("/users/me")).full_name).not.toBe("Not Renamed");
    expect(await canSignIn(person, person.password)).toBe(true);
    ok(await sessionRequest(browser, "GET", "/users/me"));
  });

  test("a new password under 8 characters, empty, or without the old one", async () => {
    const person = await newPerson();
    for (const new_password of ["short", "1234567", ""]) {
      const response = await person.api.patch("/settings", { old_password: person.password, new_password });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain("at least 8 characters");
    }
    const missing = await person.api.patch("/settings", { new_password: "long enough password" });
    expectError(missing, "BAD_REQUEST");
    expect(missing.body.msg).toBe("Missing 'old_password' argument");
    expect(await canSignIn(person, person.password)).toBe(true);
  });

  test("wrong types and oversized values are refused, naming the parameter", async () => {
    const person = await newPerson();
    for (const params of [{ old_password: person.password, new_password: "x".repeat(1025) }, { old_password: "y".repeat(1025), new_password: "long enough password" }]) {
      const response = await person.api.patch("/settings", params);
      expectError(response, "BAD_REQUEST");
    }
    const asJson = await fetch(`${org.server.url}/api/v1/settings`, {
      method: "PATCH",
      headers: { authorization: `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}`, "content-type": "application/json" },
      body: JSON.stringify({ old_password: 12345678, new_password: ["a"] }),
    });
    expect(asJson.status).toBe(400);
    expect(await canSignIn(person, person.password)).toBe(true);
  });

  test("an old password alone changes nothing and is not an error", async () => {
    const person = await newPerson();
    ok(await person.api.patch("/settings", { old_password: "anything" }));
    expect(await canSignIn(person, person.password)).toBe(true);
  });

  test("a bot has no password to change", async () => {
    const response = await org.bot.api.patch("/settings", { old_password: "anything at all", new_password: "long enough password" });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("Wrong password!");
  });

  test("a session request without the CSRF value is refused before anything is checked", async () => {
    const person = await newPerson();
    const browser = await signInSession(org.server.url, person);
    expectError(await sessionRequest(browser, "PATCH", "/settings", { old_password: person.password, new_password: "forged from elsewhere" }, { csrf: null }), "CSRF_FAILED", 403);
    expectError(await sessionRequest(browser, "PATCH", "/settings", { old_password: person.password, new_password: "forged from elsewhere" }, { csrf: "made-up" }), "CSRF_FAILED", 403);
    expect(await canSignIn(person, person.password)).toBe(true);
  });

  test("without credentials: 401", async () => {
    expectError(await org.anon.patch("/settings", { old_password: "a", new_password: "long enough password" }), "UNAUTHORIZED", 401);
  });
});

describe("guessing", () => {
  test("wrong old passwords count against the sign-in limit: then even the right one is refused, and sign-in too", async () => {
    const person = await newPerson();
    for (let attempt = 0; attempt < 4; attempt++) {
      expectError(await person.api.patch("/settings", { old_password: `guess ${attempt}`, new_password: "long enough password" }), "BAD_REQUEST");
    }
    const limited = await person.api.patch("/settings", { old_password: person.password, new_password: "long enough password" });
    expectError(limited, "RATE_LIMIT_HIT", 429);
    expect(limited.body["retry-after"]).toBeGreaterThan(0);
    expect(limited.headers.get("retry-after")).not.toBeNull();
    // The same count as signing in from this address: a guesser gains nothing by switching.
    const signIn = await postFrom("127.0.0.1", `${org.server.url}/api/v1/fetch_api_key`, { username: person.email, password: person.password });
    expect(signIn.status).toBe(429);
    // From elsewhere the owner still signs in, and the password never changed.
    expect((await postFrom("127.0.0.9", `${org.server.url}/api/v1/fetch_api_key`, { username: person.email, password: person.password })).status).toBe(200);
  });

  test("failed sign-ins count against changing the password too", async () => {
    const person = await newPerson();
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await postFrom("127.0.0.1", `${org.server.url}/api/v1/fetch_api_key`, { username: person.email, password: `guess ${attempt}` })).status).toBe(401);
    }
    expectError(await person.api.patch("/settings", { old_password: person.password, new_password: "long enough password" }), "RATE_LIMIT_HIT", 429);
  });

  test("a right old password forgives the typos before it", async () => {
    const person = await newPerson();
    for (let attempt = 0; attempt < 3; attempt++) await person.api.patch("/settings", { old_password: `typo ${attempt}`, new_password: "long enough password" });
    ok(await person.api.patch("/settings", { old_password: person.password, new_password: "long enough password" }));
    for (let attempt = 0; attempt < 3; attempt++) expectError(await person.api.patch("/settings", { old_password: `typo again ${attempt}`, new_password: "another password" }), "BAD_REQUEST");
    ok(await person.api.patch("/settings", { old_password: "long enough password", new_password: "another password" }));
    const again = await login(org.anon, person.email, "another password");
    expect(again.id).toBe(person.id);
  });
});
