import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../src/app";
import { ApiClient } from "./helpers/client";
import { OWNER, ok, seedOrg, type Org } from "./helpers/seed";
import { TestServer } from "./helpers/server";

/**
 * Login CSRF: the forms that need no session (sign-in, sign-out, joining, password reset, setup)
 * refuse a request another site made the browser send, as the signed-in forms already do, so a
 * hostile page cannot sign a visitor into the attacker's account. Programs, which send none of
 * the browser's headers, are not affected.
 */

// Sign-ins hash passwords, slowly by design.
setDefaultTimeout(60_000);

const EVIL = "http://evil.example";

interface Answer {
  status: number;
  cookies: string[];
  json: any;
}

async function postForm(base: string, path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form), redirect: "manual" });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, cookies: response.headers.getSetCookie(), json };
}

function expectRefused(answer: Answer) {
  expect(answer.status).toBe(403);
  expect(answer.json).toMatchObject({ result: "error", code: "CSRF_FAILED" });
  expect(answer.json.msg).toContain("another site");
  expect(answer.cookies).toEqual([]);
}

/**
 * POSTs outside /api/v1 that take requests from anywhere, on purpose: the missed-message
 * e-mails' one-click unsubscribe (RFC 8058), which mail clients send from wherever they run; the
 * signed token in the path is the whole authority, so another site gains nothing by sending it.
 */
const NOT_FORMS = new Set(["/accounts/unsubscribe/missed_messages/x"]);

/** The forms of the browser side that change something: every POST outside /api/v1. */
const formRoutes = () =>
  (createApp() as unknown as { routes: { method: string; path: string }[] }).routes
    .filter((route) => route.method === "POST" && !route.path.startsWith("/api/"))
    .map((route) => route.path.replace(/:(\w+)/g, "x"))
    .filter((path) => !NOT_FORMS.has(path));

const signedInSessions = async (org: Org) => ok(await org.owner.api.get("/users/me/sessions")).sessions.length as number;

describe("signing in", () => {
  let org: Org;
  const credentials = { username: OWNER.email, password: OWNER.password };

  beforeAll(async () => {
    org = await seedOrg();
  });
  afterAll(() => org?.server.dispose());

  // What a hostile page can make a browser send: its own origin, a sandboxed frame's "null",
  // or (older browsers, no Origin) its address in Referer; the fetch metadata says cross-site.
  const foreign: [string, Record<string, string>][] = [
    ["another site's Origin", { origin: EVIL }],
    ["another site's Origin, same host on another port", { origin: "http://127.0.0.1:1" }],
    ["Origin null from a sandboxed frame, with no fetch metadata", { origin: "null" }],
    ["Origin null, and the fetch metadata says cross-site", { origin: "null", "sec-fetch-site": "cross-site" }],
    ["the fetch metadata says cross-site, with no Origin", { "sec-fetch-site": "cross-site" }],
    ["the fetch metadata says same-site (a sibling subdomain)", { "sec-fetch-site": "same-site" }],
    ["another site's Referer, with no Origin", { referer: `${EVIL}/page.html` }],
  ];

  for (const [name, headers] of foreign) {
    test(`is refused with ${name}, and starts no session`, async () => {
      const before = await signedInSessions(org);
      expectRefused(await postForm(org.server.url, "/login", credentials, headers));
      expect(await signedInSessions(org)).toBe(before);
    });
  }

  test("goes on from our own page, as a browser sends it, and from programs that send none of it", async () => {
    const ours = org.server.url;
    const allowed: Record<string, string>[] = [
      { origin: ours, "sec-fetch-site": "same-origin" },
      { origin: ours },
      // A page with Referrer-Policy no-referrer makes the browser send null; the metadata vouches.
      { origin: "null", "sec-fetch-site": "same-origin" },
      // Through a TLS proxy Parley was not told about, the browser still knows it is our page.
      { origin: ours.replace("http:", "https:"), "sec-fetch-site": "same-origin" },
      { referer: `${ours}/login` },
      { "sec-fetch-site": "none" },
      {},
    ];
    for (const headers of allowed) {
      const answer = await postForm(org.server.url, "/login", credentials, headers);
      expect({ headers, status: answer.status }).toEqual({ headers, status: 303 });
      expect(answer.cookies.some((cookie) => cookie.startsWith("parley_session="))).toBe(true);
    }
  });

  test("our pages ask the browser to send their origin on their own forms", async () => {
    const page = await fetch(`${org.server.url}/login`);
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
  });

  test("every form that needs no session refuses another site, before looking at what it was sent", async () => {
    const paths = formRoutes();
    expect(paths).toEqual(expect.arrayContaining(["/login", "/logout", "/join/x", "/password/forgot", "/reset/x", "/setup", "/setup/code"]));
    for (const path of paths) {
      const answer = await postForm(org.server.url, path, { username: OWNER.email, password: OWNER.password, email: OWNER.email }, { origin: EVIL });
      expect({ path, status: answer.status, code: answer.json?.code }).toEqual({ path, status: 403, code: "CSRF_FAILED" });
    }
  });

  test("a foreign sign-out leaves the session signed in", async () => {
    const signedIn = await postForm(org.server.url, "/login", credentials);
    const cookie = signedIn.cookies.map((value) => value.split(";")[0]).join("; ");
    const csrf = cookie.match(/parley_csrf=([^;]+)/)![1];
    expectRefused(await postForm(org.server.url, "/logout", { csrf_token: csrf }, { cookie, origin: EVIL }));
    const me = await fetch(`${org.server.url}/api/v1/users/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
  });
});

describe("setting up", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await TestServer.start();
  });
  afterAll(() => server?.dispose());

  test("from another site creates no organization; from the wizard's own page it does", async () => {
    const form = { setup_code: server.setupCode!, org_name: "Hijacked", full_name: "Eve", email: "eve@example.com", password: "eve-password-long" };
    expectRefused(await postForm(server.url, "/setup", form, { origin: EVIL, accept: "application/json" }));
    expectRefused(await postForm(server.url, "/setup/code", { setup_code: server.setupCode! }, { "sec-fetch-site": "cross-site" }));
    expect(ok(await new ApiClient(server.url).get("/server_settings")).realm_name).toBeUndefined();
    const made = await postForm(server.url, "/setup", form, { origin: server.url, "sec-fetch-site": "same-origin", accept: "application/json" });
    expect(made.status).toBe(200);
    expect(ok(await new ApiClient(server.url).get("/server_settings")).realm_name).toBe("Hijacked");
  });
});

describe("behind a trusted proxy", () => {
  const PROXY = "127.0.0.1";
  let org: Org;

  beforeAll(async () => {
    org = await seedOrg({ env: { PARLEY_TRUSTED_PROXIES: PROXY } });
  });
  afterAll(() => org?.server.dispose());

  test("the origin the browser saw through the TLS proxy is ours; another site's is not", async () => {
    const host = new URL(org.server.url).host;
    const credentials = { username: OWNER.email, password: OWNER.password };
    const proxied = { "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.7" };
    expect((await postForm(org.server.url, "/login", credentials, { ...proxied, origin: `https://${host}` })).status).toBe(303);
    expectRefused(await postForm(org.server.url, "/login", credentials, { ...proxied, origin: `http://${host}` }));
    expectRefused(await postForm(org.server.url, "/login", credentials, { ...proxied, origin: "https://evil.example" }));
  });
});
