import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createPerson, expectError, ok, seedOrg, type Org } from "../helpers/seed";
import { sessionRequest, signInSession } from "../helpers/sessionClient";
import { SEED_TIMEOUT_MS } from "../events/support";

/** POST /users/me/api_key/regenerate: a person replaces their own API key; the old one is refused at once. */

let org: Org;
let people = 0;

beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const newPerson = (role?: number) => createPerson(org.owner, org.anon, `Kay Keys ${++people}`, role);

describe("regenerating one's own API key", () => {
  test("answers the new key; the old key is refused from then on, the new one works", async () => {
    const person = await newPerson();
    const body = ok(await person.api.post("/users/me/api_key/regenerate"));
    expect(Object.keys(body).sort()).toEqual(["api_key", "msg", "result"]);
    expect(body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(body.api_key).not.toBe(person.apiKey);
    expectError(await person.api.get("/users/me"), "INVALID_API_KEY", 401);
    const renewed = org.anon.as(person.email, body.api_key);
    expect(ok(await renewed.get("/users/me")).user_id).toBe(person.id);
    // Signing in with the password hands out the new key.
    expect(ok(await org.anon.post("/fetch_api_key", { username: person.email, password: person.password })).api_key).toBe(body.api_key);
  });

  test("from a browser session with the CSRF value; the session itself stays signed in", async () => {
    const person = await newPerson();
    const browser = await signInSession(org.server.url, person);
    const { api_key } = ok(await sessionRequest(browser, "POST", "/users/me/api_key/regenerate"));
    expectError(await person.api.get("/users/me"), "INVALID_API_KEY", 401);
    ok(await org.anon.as(person.email, api_key).get("/users/me"));
    ok(await sessionRequest(browser, "GET", "/users/me"));
  });

  test("every role may replace their own key, and only their own: nobody else's changes", async () => {
    for (const role of [100, 200, 300, 400, 600]) {
      const person = await newPerson(role);
      ok(await person.api.post("/users/me/api_key/regenerate"));
    }
    for (const other of [org.member, org.member2, org.admin, org.bot]) ok(await other.api.get("/users/me"));
  });

  test("a forged request from a session without the CSRF value is refused, and the key stays", async () => {
    const person = await newPerson();
    const browser = await signInSession(org.server.url, person);
    expectError(await sessionRequest(browser, "POST", "/users/me/api_key/regenerate", {}, { csrf: null }), "CSRF_FAILED", 403);
    expectError(await sessionRequest(browser, "POST", "/users/me/api_key/regenerate", {}, { csrf: "guessed" }), "CSRF_FAILED", 403);
    ok(await person.api.get("/users/me"));
  });

  test("bots are refused (their owners use /bots/{bot_id}/api_key/regenerate), and their key stays", async () => {
    const response = await org.bot.api.post("/users/me/api_key/regenerate");
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("This endpoint does not accept bot requests.");
    ok(await org.bot.api.get("/users/me"));
  });

  test("without credentials, or with a wrong key: 401", async () => {
    expectError(await org.anon.post("/users/me/api_key/regenerate"), "UNAUTHORIZED", 401);
    expectError(await org.anon.as(org.member.email, "not-the-key").post("/users/me/api_key/regenerate"), "INVALID_API_KEY", 401);
  });

  test("a deactivated person cannot", async () => {
    const person = await newPerson();
    ok(await org.owner.api.delete(`/users/${person.id}`));
    expectError(await person.api.post("/users/me/api_key/regenerate"), "USER_DEACTIVATED", 401);
  });
});
