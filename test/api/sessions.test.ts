import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { postFrom } from "../helpers/fromAddress";
import { expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { TestServer } from "../helpers/server";

/** Browser sessions: the cookies, CSRF, the sessions list, sign-out and expiry (http/session.ts). */

let org: Org;
let nextAddress = 20;
const freshAddress = () => `127.0.0.${nextAddress++}`;

interface Browser {
  cookie: string;
  csrf: string;
  location: string;
}

async function signIn(server: TestServer, person: { email: string; password: string }, form: Record<string, string> = {}): Promise<Browser> {
  const response = await postFrom(freshAddress(), `${server.url}/login`, { username: person.email, password: person.password, ...form });
  expect(response.status).toBe(303);
  const cookies = (response.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]);
  const csrf = cookies.find((cookie) => cookie.startsWith("parley_csrf="))!.slice("parley_csrf=".length);
  return { cookie: cookies.join("; "), csrf, location: String(response.headers.location) };
}

/** A request as our pages make it: the cookies, and the CSRF header unless told otherwise. */
function call(server: TestServer, browser: Browser, method: string, path: string, options: { csrf?: string | null; origin?: string; body?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { cookie: browser.cookie };
  const csrf = options.csrf === undefined ? browser.csrf : options.csrf;
  if (csrf !== null) headers["x-csrf-token"] = csrf;
  if (options.origin) headers.origin = options.origin;
  const init: RequestInit = { method, headers, redirect: "manual" };
  if (options.body) init.body = new URLSearchParams(options.body);
  return fetch(`${server.url}${path}`, init);
}

const json = async (response: Response) => ({ status: response.status, body: await response.json() });

beforeAll(async () => {
  org = await seedOrg();
});
afterAll(() => org.server.dispose());

describe("signing in", () => {
  test("sets the session and CSRF cookies, and the session calls the API as that person", async () => {
    const browser = await signIn(org.server, org.member);
    expect(browser.location).toBe("/");
    const me = ok(await json(await call(org.server, browser, "GET", "/api/v1/users/me")));
    expect(me.user_id).toBe(org.member.id);
  });

  test("sends everyone to the chat, and honours a local next path only", async () => {
    expect((await signIn(org.server, org.admin)).location).toBe("/");
    expect((await signIn(org.server, org.owner)).location).toBe("/");
    expect((await signIn(org.server, org.member, { next: "/settings/sessions" })).location).toBe("/settings/sessions");
    for (const next of ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      expect((await signIn(org.server, org.member, { next })).location).toBe("/");
    }
  });

  test("a bot has no password and cannot start a session", async () => {
    const response = await postFrom(freshAddress(), `${org.server.url}/login`, { username: org.bot.email, password: "anything at all" });
    expect(response.status).toBe(401);
    expect(response.headers["set-cookie"]).toBeUndefined();
  });
});

describe("CSRF", () => {
  test("a change with the cookie but without the CSRF header is refused, and nothing changes", async () => {
    const browser = await signIn(org.server, org.member);
    const before = ok(await org.member.api.get(`/users/${org.member.id}/status`)).status;
    for (const csrf of [null, "", "wrong", browser.csrf.slice(1)]) {
      expectError(await json(await call(org.server, browser, "POST", "/api/v1/users/me/status", { csrf, body: { status_text: "forged" } })), "CSRF_FAILED", 403);
    }
    expect(ok(await org.member.api.get(`/users/${org.member.id}/status`)).status).toEqual(before);
    ok(await json(await call(org.server, browser, "POST", "/api/v1/users/me/status", { body: { status_text: "mine" } })));
    expect(ok(await org.member.api.get(`/users/${org.member.id}/status`)).status.status_text).toBe("mine");
  });

  test("another session's CSRF value does not fit", async () => {
    const mine = await signIn(org.server, org.member);
    const theirs = await signIn(org.server, org.member2);
    expectError(await json(await call(org.server, mine, "POST", "/api/v1/users/me/status", { csrf: theirs.csrf, body: { status_text: "x" } })), "CSRF_FAILED", 403);
  });

  test("a request from another site's page is refused even with the right value", async () => {
    const browser = await signIn(org.server, org.member);
    expectError(await json(await call(org.server, browser, "POST", "/api/v1/users/me/status", { origin: "https://evil.example", body: { status_text: "x" } })), "CSRF_FAILED", 403);
    ok(await json(await call(org.server, browser, "POST", "/api/v1/users/me/status", { origin: org.server.url, body: { status_text: "same origin" } })));
  });

  test("reads need no CSRF value", async () => {
    const browser = await signIn(org.server, org.member);
    ok(await json(await call(org.server, browser, "GET", "/api/v1/users/me", { csrf: null })));
  });

  test("a member's session cannot do what an administrator may, whatever it sends", async () => {
    const browser = await signIn(org.server, org.member);
    expectError(await json(await call(org.server, browser, "DELETE", `/api/v1/users/${org.member2.id}`)), "BAD_REQUEST");
    expect(ok(await org.owner.api.get(`/users/${org.member2.id}`)).user.is_active).toBe(true);
  });
});

describe("without a valid session", () => {
  test("a stale or made-up cookie gets 401 with no Basic challenge (no browser password pop-up)", async () => {
    const response = await fetch(`${org.server.url}/api/v1/users/me`, { headers: { cookie: "parley_session=made-up; parley_csrf=x" } });
    expectError(await json(response), "UNAUTHORIZED", 401);
    expect(response.headers.get("www-authenticate")).toBeNull();
    // Programs still get the challenge.
    expect((await fetch(`${org.server.url}/api/v1/users/me`)).headers.get("www-authenticate")).toContain("Basic");
  });

  test("HTTP Basic credentials win over a cookie", async () => {
    const browser = await signIn(org.server, org.member);
    const response = await fetch(`${org.server.url}/api/v1/users/me`, { headers: { cookie: browser.cookie, authorization: `Basic ${btoa(`${org.member2.email}:${org.member2.apiKey}`)}` } });
    expect(ok(await json(response)).user_id).toBe(org.member2.id);
  });

  test("pages send strangers to sign-in, and members away from the console", async () => {
    const anonymous = await fetch(`${org.server.url}/admin/people`, { redirect: "manual" });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/login?next=%2Fadmin%2Fpeople");
    expect((await fetch(`${org.server.url}/settings/`, { redirect: "manual" })).headers.get("location")).toBe("/login?next=%2Fsettings%2F");
    const member = await signIn(org.server, org.member);
    expect((await call(org.server, member, "GET", "/admin/people")).headers.get("location")).toBe("/settings/");
    expect((await call(org.server, member, "GET", "/settings/")).status).toBe(200);
    const admin = await signIn(org.server, org.admin);
    expect((await call(org.server, admin, "GET", "/admin/people")).status).toBe(200);
  });
});

describe("the sessions list", () => {
  test("lists a person's sessions, marks the current one, and ends another", async () => {
    const person: Person = org.moderator;
    const laptop = await signIn(org.server, person);
    const phone = await signIn(org.server, person);
    const { sessions } = ok(await json(await call(org.server, laptop, "GET", "/api/v1/users/me/sessions")));
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    const current = sessions.filter((session: any) => session.is_current);
    expect(current).toHaveLength(1);
    for (const session of sessions) {
      expect(Object.keys(session).sort()).toEqual(["created", "expires", "id", "ip_address", "is_current", "last_active", "user_agent"]);
      expect(session.expires).toBeGreaterThan(session.last_active);
    }
    const phoneSession = ok(await json(await call(org.server, phone, "GET", "/api/v1/users/me/sessions"))).sessions.find((session: any) => session.is_current);
    ok(await json(await call(org.server, laptop, "DELETE", `/api/v1/users/me/sessions/${phoneSession.id}`)));
    expectError(await json(await call(org.server, phone, "GET", "/api/v1/users/me")), "UNAUTHORIZED", 401);
    ok(await json(await call(org.server, laptop, "GET", "/api/v1/users/me")));
    // Through the API key too, where no session is current.
    expect(ok(await person.api.get("/users/me/sessions")).sessions.every((session: any) => !session.is_current)).toBe(true);
  });

  test("nobody ends another person's session, and unknown IDs are refused", async () => {
    const theirs = await signIn(org.server, org.member2);
    const theirId = ok(await json(await call(org.server, theirs, "GET", "/api/v1/users/me/sessions"))).sessions.find((session: any) => session.is_current).id;
    expectError(await org.owner.api.delete(`/users/me/sessions/${theirId}`), "BAD_REQUEST");
    expectError(await org.member.api.delete("/users/me/sessions/999999"), "BAD_REQUEST");
    expectError(await org.member.api.delete("/users/me/sessions/abc"), "BAD_REQUEST");
    ok(await json(await call(org.server, theirs, "GET", "/api/v1/users/me")));
  });
});

describe("signing out", () => {
  test("ends the session and clears the cookies; it needs the CSRF value", async () => {
    const browser = await signIn(org.server, org.member);
    const forged = await call(org.server, browser, "POST", "/logout", { csrf: null });
    expect(forged.status).toBe(403);
    ok(await json(await call(org.server, browser, "GET", "/api/v1/users/me")));
    const out = await call(org.server, browser, "POST", "/logout", { csrf: null, body: { csrf_token: browser.csrf } });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/login");
    expect(out.headers.getSetCookie().some((cookie) => cookie.startsWith("parley_session=;") && cookie.includes("Max-Age=0"))).toBe(true);
    expectError(await json(await call(org.server, browser, "GET", "/api/v1/users/me")), "UNAUTHORIZED", 401);
  });

  test("a deactivated person's session stops working", async () => {
    const email = "leaving@example.com";
    ok(await org.owner.api.post("/users", { email, password: "leaving-password", full_name: "Lea Leaving" }));
    const browser = await signIn(org.server, { email, password: "leaving-password" });
    const id = ok(await json(await call(org.server, browser, "GET", "/api/v1/users/me"))).user_id;
    ok(await org.owner.api.delete(`/users/${id}`));
    expectError(await json(await call(org.server, browser, "GET", "/api/v1/users/me")), "USER_DEACTIVATED", 401);
    expect((await call(org.server, browser, "GET", "/settings/")).headers.get("location")).toStartWith("/login");
  });
});

describe("expiry", () => {
  test("a session unused for PARLEY_SESSION_IDLE_SECONDS ends", async () => {
    const short = await seedOrg({ env: { PARLEY_SESSION_IDLE_SECONDS: "2" } });
    try {
      const browser = await signIn(short.server, short.member);
      ok(await json(await call(short.server, browser, "GET", "/api/v1/users/me")));
      await Bun.sleep(2500);
      expectError(await json(await call(short.server, browser, "GET", "/api/v1/users/me")), "UNAUTHORIZED", 401);
    } finally {
      await short.server.dispose();
    }
  });
});
