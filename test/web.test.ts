import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ApiClient } from "./helpers/client";
import { postFrom, type RawResponse } from "./helpers/fromAddress";
import { createPerson, expectError, login, ok, type Person } from "./helpers/seed";
import { TestServer } from "./helpers/server";

// Sign-ins hash passwords, slowly by design; on a busy machine a test can outlast the 5 s default.
setDefaultTimeout(30_000);

const FAILURE_LIMIT = 3;

// Characters that mean something in HTML, in every field that is shown back.
const ORG_NAME = `Bits & <Bobs> "Co"`;
const OWNER = { full_name: "Olive <i>Owner</i>", email: "olive@example.com", password: "olive-password" };

let server: TestServer;
let anon: ApiClient;
let owner: Person;
let nextAddress = 10;
const freshAddress = () => `127.0.0.${nextAddress++}`;

const submit = (path: string, form: Record<string, string>, address = freshAddress()) => postFrom(address, `${server.url}${path}`, form);
const setup = (form: Record<string, string>) => submit("/setup", form);
/** The form with the setup code the server printed at its start. */
const withCode = (form: Record<string, string>) => ({ setup_code: server.setupCode!, ...form });
const signIn = (username: string, password: string, address?: string) => submit("/login", { username, password }, address);
/** POST /setup as the wizard sends it: asking for JSON. */
const jsonSetup = (form: Record<string, string>, base = server.url) =>
  fetch(`${base}/setup`, { method: "POST", headers: { accept: "application/json" }, body: new URLSearchParams(form), redirect: "manual" });

/** The value attribute of the input with this id, as the browser would read it. */
function inputValue(page: string, id: string): string | undefined {
  const match = page.match(new RegExp(`<input id="${id}"[^>]*? value="([^"]*)"`));
  return match ? unescapeHtml(match[1]) : undefined;
}

const unescapeHtml = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

function expectPage(response: RawResponse, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(response.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(response.headers["x-frame-options"]).toBe("DENY");
  expect(response.headers["cache-control"]).toBe("no-store");
  expect(response.text).toStartWith("<!doctype html>");
}

async function realmName(): Promise<string | undefined> {
  return ok(await anon.get("/server_settings")).realm_name;
}

beforeAll(async () => {
  // Its brute-force test fails from a fresh address each time: the per-account limit is what acts.
  server = await TestServer.start({ env: { PARLEY_LOGIN_ACCOUNT_FAILURE_LIMIT: String(FAILURE_LIMIT), PARLEY_LOGIN_FAILURE_WINDOW_SECONDS: "60" } });
  anon = new ApiClient(server.url);
});
afterAll(() => server.dispose());

describe("before the organization exists", () => {
  test("GET / sends the browser to the setup wizard, a bundled page", async () => {
    const response = await fetch(`${server.url}/`, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/setup/");
    const wizard = await fetch(`${server.url}/setup/`);
    const page = { status: wizard.status, headers: Object.fromEntries(wizard.headers), text: await wizard.text(), json: undefined };
    expectPage(page, 200);
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    const script = page.text.match(/<script type="module" src="(\/static\/web\/setup\/main-[a-z0-9]+\.js)"><\/script>/);
    expect(script).not.toBeNull();
    const bundle = await fetch(`${server.url}${script![1]}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(bundle.headers.get("content-type")).toStartWith("text/javascript");
  });

  test("the server printed a setup code at start, and the page shows it nowhere", async () => {
    expect(server.setupCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(server.output).toContain("This server has no organization yet");
    const page = await (await fetch(`${server.url}/setup/`)).text();
    expect(page).not.toContain(server.setupCode!);
  });

  test("setting up without the setup code, or with a wrong one, is refused and creates nothing", async () => {
    const good = { org_name: "Claimed Org", full_name: "Mallory", email: "mallory@example.com", password: "mallory-password" };
    const code = server.setupCode!;
    // A code of the right shape that is not this one: one symbol changed.
    const wrong = code.slice(0, -1) + (code.endsWith("A") ? "B" : "A");
    const cases: Array<[Record<string, string>, string]> = [
      [good, "Enter the setup code"],
      [{ ...good, setup_code: "" }, "Enter the setup code"],
      [{ ...good, setup_code: wrong }, "That is not the setup code"],
      [{ ...good, setup_code: code.replace(/-/g, "") + "X" }, "That is not the setup code"],
      [{ ...good, setup_code: "x".repeat(64) }, "That is not the setup code"],
    ];
    for (const [form, message] of cases) {
      const response = await setup(form);
      expectPage(response, 403);
      expect(response.text).toContain(`<p class="error" role="alert">${message}`);
      expect(inputValue(response.text, "org_name")).toBe(good.org_name);
      expect(response.text).not.toContain(good.password);
    }
    expect(await realmName()).toBeUndefined();
  });

  test("/setup without its slash is sent to /setup/", async () => {
    const response = await fetch(`${server.url}/setup`, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/setup/");
  });

  test("POST /setup/code checks the code in JSON, as typed by a person, without using it up", async () => {
    const code = server.setupCode!;
    const wrong = code.slice(0, -1) + (code.endsWith("A") ? "B" : "A");
    for (const [form, message] of [
      [{}, "Enter the setup code from the server\u2019s log."],
      [{ setup_code: "  " }, "Enter the setup code from the server\u2019s log."],
      [{ setup_code: wrong }, "That is not the setup code. Check the server\u2019s log: a restart prints a new one."],
    ] as Array<[Record<string, string>, string]>) {
      const response = await submit("/setup/code", form);
      expect(response.status).toBe(403);
      expect(response.json).toEqual({ result: "error", msg: message, code: "BAD_REQUEST" });
    }
    const tooLong = await submit("/setup/code", { setup_code: "x".repeat(65) });
    expectError({ status: tooLong.status, body: tooLong.json }, "BAD_REQUEST");
    for (const typed of [code, ` ${code.toLowerCase().replace(/-/g, " ")} `]) {
      const response = await submit("/setup/code", { setup_code: typed });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ result: "success", msg: "" });
    }
    expect(await realmName()).toBeUndefined();
  });

  test("POST /setup asking for JSON answers JSON errors, never the form", async () => {
    const good = withCode({ org_name: ORG_NAME, full_name: OWNER.full_name, email: OWNER.email, password: OWNER.password });
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ ...good, setup_code: "WRONG-CODE-HERE" }, 403, "That is not the setup code"],
      [{ ...good, org_name: "" }, 400, "The organization needs a name."],
      [{ ...good, password: "short" }, 400, "The password must be at least 8 characters."],
      [{ ...good, org_url: "chat.example.com" }, 400, "is not a valid organization URL"],
      [{ ...good, org_url: "ftp://chat.example.com" }, 400, "is not a valid organization URL"],
      [{ ...good, org_url: "https://chat.example.com/parley" }, 400, "is not a valid organization URL"],
      [{ ...good, org_url: "https://user:pw@chat.example.com" }, 400, "is not a valid organization URL"],
      [{ ...good, org_url: "https://chat.example.com/?x=1" }, 400, "is not a valid organization URL"],
    ];
    for (const [form, status, message] of cases) {
      const response = await jsonSetup(form);
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toStartWith("application/json");
      expect(response.headers.get("set-cookie")).toBeNull();
      const body = await response.json();
      expect(body).toMatchObject({ result: "error", code: "BAD_REQUEST" });
      expect(body.msg).toContain(message);
    }
    expect(await realmName()).toBeUndefined();
  });

  test("the form refuses an organization URL that is not an http(s) origin", async () => {
    const response = await setup(withCode({ org_name: ORG_NAME, org_url: "javascript:alert(1)", full_name: OWNER.full_name, email: OWNER.email, password: OWNER.password }));
    expectPage(response, 400);
    expect(response.text).toContain("is not a valid organization URL");
    expect(inputValue(response.text, "org_url")).toBe("javascript:alert(1)");
    expect(await realmName()).toBeUndefined();
  });

  test("signing in sends the browser back to setup", async () => {
    const response = await signIn("someone@example.com", "whatever-password");
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe("/setup/");
  });

  test("a refused form comes back with the reason and what was typed, never the password, and creates nothing", async () => {
    const good = withCode({ org_name: ORG_NAME, full_name: OWNER.full_name, email: OWNER.email, password: OWNER.password });
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...good, org_name: "  " }, "The organization needs a name."],
      [{ ...good, org_name: "x".repeat(41) }, "The organization name is at most 40 characters."],
      [{ ...good, full_name: "" }, "The owner needs a name."],
      [{ ...good, email: "olive-at-example" }, "&#39;olive-at-example&#39; is not a valid e-mail address."],
      [{ ...good, password: "short" }, "The password must be at least 8 characters."],
      [withCode({ org_name: ORG_NAME }), "not a valid e-mail address"],
    ];
    for (const [form, message] of cases) {
      const response = await setup(form);
      expectPage(response, 400);
      expect(response.text).toContain(`<p class="error" role="alert">`);
      expect(response.text).toContain(message);
      for (const name of ["setup_code", "org_name", "full_name", "email"]) expect(inputValue(response.text, name)).toBe(form[name] ?? "");
      expect(inputValue(response.text, "password")).toBe("");
      if (form.password) expect(response.text).not.toContain(form.password);
    }
    expect(await realmName()).toBeUndefined();
  });

  test("what was typed is shown as text, never as markup", async () => {
    const response = await setup(withCode({ org_name: "<script>alert(1)</script>", full_name: OWNER.full_name, email: OWNER.email, password: "short" }));
    expectPage(response, 400);
    expect(response.text).not.toContain("<script>");
    expect(response.text).not.toContain("<i>");
    expect(response.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});

describe("setting up", () => {
  test("creates the organization at the address it was reached at, and its owner, with the code typed as a person might", async () => {
    const typed = ` ${server.setupCode!.toLowerCase().replace(/-/g, " ")} `;
    const response = await setup({ setup_code: typed, org_name: ORG_NAME, full_name: OWNER.full_name, email: OWNER.email, password: OWNER.password });
    expectPage(response, 200);
    expect(response.text).toContain("<h1>Bits &amp; &lt;Bobs&gt; &quot;Co&quot; is ready</h1>");
    expect(response.text).toContain('href="/"');
    const settings = ok(await anon.get("/server_settings"));
    expect(settings).toMatchObject({ realm_name: ORG_NAME, realm_url: server.url });
    owner = await login(anon, OWNER.email, OWNER.password);
    expect(ok(await owner.api.get("/users/me"))).toMatchObject({ full_name: OWNER.full_name, email: OWNER.email, role: 100, is_owner: true });
  });

  test("cannot happen twice, whatever is sent, and changes nothing", async () => {
    const usurper = { org_name: "Usurper Org", full_name: "Ursula", email: "ursula@example.com", password: "ursula-password" };
    // The code that set it up included: it was for one setup only.
    for (const form of [withCode(usurper), usurper, { ...usurper, password: "short" }, {}]) {
      const response = await setup(form);
      expectPage(response, 403);
      expect(response.text).toContain("already has an organization");
    }
    expect(await realmName()).toBe(ORG_NAME);
    expectError(await anon.post("/fetch_api_key", { username: usurper.email, password: usurper.password }), "AUTHENTICATION_FAILED", 401);
  });

  test("the setup code and JSON setup are refused once set up", async () => {
    for (const response of [await submit("/setup/code", { setup_code: server.setupCode! }), await submit("/setup/code", {})]) {
      expect(response.status).toBe(403);
      expect(response.json).toEqual({ result: "error", msg: "This server already has an organization; it cannot be set up again.", code: "BAD_REQUEST" });
    }
    const response = await jsonSetup(withCode({ org_name: "Usurper Org", full_name: "Ursula", email: "ursula@example.com", password: "ursula-password" }));
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect((await response.json()).msg).toContain("already has an organization");
    expect(await realmName()).toBe(ORG_NAME);
  });

  test("GET / becomes the sign-in page, and every setup page leads there", async () => {
    const root = await fetch(`${server.url}/`, { redirect: "manual" });
    expect(root.headers.get("location")).toBe("/login");
    for (const path of ["/setup", "/setup/", "/setup/anything/else"]) {
      const response = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/");
    }
    const response = await fetch(`${server.url}/login`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toContain("<h1>Sign in to Bits &amp; &lt;Bobs&gt; &quot;Co&quot;</h1>");
    expect(text).toContain('<form method="post" action="/login">');
    expect(text).not.toContain('action="/setup"');
  });
});

describe("signing in on the page", () => {
  test("starts a browser session: an HttpOnly cookie, a CSRF cookie, and the way to the chat", async () => {
    const response = await signIn(OWNER.email.toUpperCase(), OWNER.password);
    expect(response.status).toBe(303);
    // Everyone, the owner too, lands in the chat; the console is a link away.
    expect(response.headers.location).toBe("/");
    const cookies = response.headers["set-cookie"]!;
    const session = cookies.find((cookie) => cookie.startsWith("parley_session="))!;
    const csrf = cookies.find((cookie) => cookie.startsWith("parley_csrf="))!;
    expect(session).toContain("HttpOnly");
    expect(session).toContain("SameSite=Lax");
    expect(session).toContain("Path=/");
    // Served over plain HTTP here, so not Secure (a browser would drop a Secure cookie).
    expect(session).not.toContain("Secure");
    expect(csrf).not.toContain("HttpOnly");
    expect(response.text).not.toContain(owner.apiKey);
    const cookieHeader = [session, csrf].map((cookie) => cookie.split(";")[0]).join("; ");
    const me = await fetch(`${server.url}/api/v1/users/me`, { headers: { cookie: cookieHeader } });
    expect((await me.json()).email).toBe(OWNER.email);
  });

  test("refuses a wrong password with the reason, keeping the e-mail and showing no key", async () => {
    const response = await signIn(OWNER.email, "not the password");
    expectPage(response, 401);
    expect(response.text).toContain("Your username or password is incorrect");
    expect(inputValue(response.text, "username")).toBe(OWNER.email);
    expect(response.text).not.toContain(owner.apiKey);
  });

  test("tells a deactivated user so", async () => {
    const gone = await createPerson(owner, anon, "Gone Person");
    ok(await owner.api.delete(`/users/${gone.id}`));
    const response = await signIn(gone.email, gone.password);
    expectPage(response, 401);
    expect(response.text).toContain("Account is deactivated");
    expect(response.text).not.toContain(gone.apiKey);
  });

  test("shares the brute-force limit with fetch_api_key", async () => {
    const target = await createPerson(owner, anon, "Target Person");
    for (let i = 0; i < FAILURE_LIMIT; i++) {
      const response = i % 2 === 0 ? await signIn(target.email, `guess ${i}`) : await submit("/api/v1/fetch_api_key", { username: target.email, password: `guess ${i}` });
      expect(response.status).toBe(401);
    }
    const page = await signIn(target.email, target.password);
    expectPage(page, 429);
    expect(Number(page.headers["retry-after"])).toBeGreaterThan(0);
    expect(page.text).toContain("Too many failed sign-in attempts. Try again in a minute.");
    expect(page.text).not.toContain(target.apiKey);
    const api = await submit("/api/v1/fetch_api_key", { username: target.email, password: target.password });
    expectError({ status: api.status, body: api.json }, "RATE_LIMIT_HIT", 429);
  });
});

describe("setting up from the wizard (JSON)", () => {
  let fresh: TestServer;
  beforeAll(async () => {
    fresh = await TestServer.start();
  });
  afterAll(() => fresh.dispose());

  test("creates the organization at the URL given, answers JSON and signs the owner in with the session cookies", async () => {
    const response = await jsonSetup({ setup_code: fresh.setupCode!, org_name: "Wizard Org", org_url: "https://chat.example.com/", full_name: "Wendy Wizard", email: "Wendy@Example.com", password: "wendy-password" }, fresh.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toEqual({ result: "success", msg: "", user_id: expect.any(Number), email: "wendy@example.com", realm_url: "https://chat.example.com" });
    const cookies = response.headers.getSetCookie();
    const session = cookies.find((cookie) => cookie.startsWith("parley_session="))!;
    const csrf = cookies.find((cookie) => cookie.startsWith("parley_csrf="))!;
    expect(session).toContain("HttpOnly");
    expect(csrf).not.toContain("HttpOnly");
    const cookieHeader = [session, csrf].map((cookie) => cookie.split(";")[0]).join("; ");
    const me = await fetch(`${fresh.url}/api/v1/users/me`, { headers: { cookie: cookieHeader } });
    expect(await me.json()).toMatchObject({ user_id: body.user_id, email: "wendy@example.com", role: 100, is_owner: true });
    // The session can change things, with the CSRF value as our pages send it.
    const csrfValue = csrf.split(";")[0].slice("parley_csrf=".length);
    const created = await fetch(`${fresh.url}/api/v1/users/me/subscriptions`, {
      method: "POST",
      headers: { cookie: cookieHeader, "x-csrf-token": csrfValue },
      body: new URLSearchParams({ subscriptions: JSON.stringify([{ name: "first" }]) }),
    });
    expect((await created.json()).result).toBe("success");
    expect(ok(await new ApiClient(fresh.url).get("/server_settings"))).toMatchObject({ realm_name: "Wizard Org", realm_url: "https://chat.example.com" });
    // The code is used up: the wizard's page and its code check are gone.
    expect((await fetch(`${fresh.url}/setup/`, { redirect: "manual" })).headers.get("location")).toBe("/");
    expect((await postFrom("127.0.0.90", `${fresh.url}/setup/code`, { setup_code: fresh.setupCode! })).status).toBe(403);
  });
});
