import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import http from "node:http";
import { ApiClient } from "./helpers/client";
import { OWNER, createPerson, login, startInitializedServer, type Person } from "./helpers/seed";
import { runParley, tempDataDir, type TestServer } from "./helpers/server";

/**
 * Behind a reverse proxy: X-Forwarded-For and X-Forwarded-Proto are believed from the peers in
 * PARLEY_TRUSTED_PROXIES only, so the sign-in limits count the real client behind the proxy,
 * and nobody else can choose the address they are counted under.
 */

// Logins hash passwords, slowly by design.
setDefaultTimeout(60_000);

const PAIR_LIMIT = 3;
const LIMITS = {
  PARLEY_LOGIN_FAILURE_LIMIT: String(PAIR_LIMIT),
  PARLEY_LOGIN_ADDRESS_FAILURE_LIMIT: "50",
  PARLEY_LOGIN_ACCOUNT_FAILURE_LIMIT: "50",
  PARLEY_LOGIN_FAILURE_WINDOW_SECONDS: "120",
};

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  json: any;
}

/**
 * A request sent from a chosen loopback address (all of 127.0.0.0/8 is this machine), with the
 * headers a proxy (or a client pretending to be one) would add.
 */
function send(url: string, options: { from: string; method?: string; headers?: Record<string, string>; form?: Record<string, string> }): Promise<Answer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : "";
  const target = new URL(url);
  const headers: Record<string, string | number> = { ...options.headers };
  if (options.form) Object.assign(headers, { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) });
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: options.method ?? (options.form ? "POST" : "GET"), localAddress: options.from, headers },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => {
          let json: any;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, json });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const fetchApiKey = (server: TestServer, person: { email: string }, password: string, from: string, headers: Record<string, string> = {}) =>
  send(`${server.url}/api/v1/fetch_api_key`, { from, headers, form: { username: person.email, password } });

/** Wrong passwords until the pair limit, each a 401, the header `headers(i)` for the i-th. */
async function failTimes(server: TestServer, person: Person, from: string, headers: (i: number) => Record<string, string>) {
  for (let i = 0; i < PAIR_LIMIT; i++) expect((await fetchApiKey(server, person, `wrong ${i}`, from, headers(i))).status).toBe(401);
}

const xff = (value: string) => ({ "x-forwarded-for": value });

/** Signs in at /login; the cookies it sets, whole (attributes included). */
async function signIn(server: TestServer, person: Person, from: string, headers: Record<string, string> = {}) {
  const response = await send(`${server.url}/login`, { from, headers, form: { username: person.email, password: person.password } });
  expect(response.status).toBe(303);
  const cookies = response.headers["set-cookie"] ?? [];
  expect(cookies.length).toBe(2);
  return cookies;
}

const isSecure = (cookie: string) => cookie.split("; ").includes("Secure");
const pairsOf = (cookies: string[]) => cookies.map((cookie) => cookie.split(";")[0]);
const csrfOf = (cookies: string[]) => pairsOf(cookies).find((pair) => pair.startsWith("parley_csrf="))!.slice("parley_csrf=".length);

/** The address the person's current browser session was recorded with. */
async function sessionAddress(server: TestServer, cookies: string[], from: string, headers: Record<string, string> = {}) {
  const response = await send(`${server.url}/api/v1/users/me/sessions`, { from, headers: { ...headers, cookie: pairsOf(cookies).join("; ") } });
  expect(response.status).toBe(200);
  return response.json.sessions.find((session: any) => session.is_current).ip_address;
}

describe("behind a trusted proxy (PARLEY_TRUSTED_PROXIES=127.0.0.1,10.0.0.0/8)", () => {
  let server: TestServer;
  let owner: Person;
  let anon: ApiClient;
  let people = 0;
  const freshPerson = () => createPerson(owner, anon, `Proxied Person ${people++}`);
  // The proxy: Parley sees every request come from 127.0.0.1.
  const PROXY = "127.0.0.1";

  beforeAll(async () => {
    server = await startInitializedServer({ env: { ...LIMITS, PARLEY_TRUSTED_PROXIES: "127.0.0.1,10.0.0.0/8" } });
    anon = new ApiClient(server.url);
    owner = await login(anon, OWNER.email, OWNER.password);
  });

  afterAll(async () => {
    await server?.dispose();
  });

  test("failures count against the forwarded address: it is locked out, another client behind the same proxy is not", async () => {
    const person = await freshPerson();
    await failTimes(server, person, PROXY, () => xff("203.0.113.9"));
    const locked = await fetchApiKey(server, person, person.password, PROXY, xff("203.0.113.9"));
    expect(locked.status).toBe(429);
    expect(locked.json.code).toBe("RATE_LIMIT_HIT");
    const other = await fetchApiKey(server, person, person.password, PROXY, xff("203.0.113.10"));
    expect(other.status).toBe(200);
    expect(other.json.email).toBe(person.email);
    // The proxy's own address was never counted either.
    expect((await fetchApiKey(server, person, person.password, PROXY)).status).toBe(200);
  });

  test("the rightmost address that is not a trusted proxy counts: what the client wrote further left does not", async () => {
    const person = await freshPerson();
    // A client forging a fresh address per guess in front of what the proxy appended.
    await failTimes(server, person, PROXY, (i) => xff(`198.51.100.${i + 1}, 203.0.113.20`));
    expect((await fetchApiKey(server, person, person.password, PROXY, xff("198.51.100.200, 203.0.113.20"))).status).toBe(429);
    // Through a second trusted proxy (10.0.0.0/8) in the chain, still the same client.
    expect((await fetchApiKey(server, person, person.password, PROXY, xff("203.0.113.20, 10.1.2.3"))).status).toBe(429);
    expect((await fetchApiKey(server, person, person.password, PROXY, xff("203.0.113.21, 10.1.2.3"))).status).toBe(200);
  });

  test("a peer that is not a listed proxy cannot choose its address: its header is ignored", async () => {
    const person = await freshPerson();
    const stranger = "127.0.0.2";
    await failTimes(server, person, stranger, (i) => xff(`203.0.113.${50 + i}`));
    expect((await fetchApiKey(server, person, person.password, stranger, xff("203.0.113.99"))).status).toBe(429);
    expect((await fetchApiKey(server, person, person.password, stranger)).status).toBe(429);
    // The addresses it named were never counted.
    expect((await fetchApiKey(server, person, person.password, PROXY, xff("203.0.113.50"))).status).toBe(200);
  });

  test("the session records the forwarded address; from another peer, the peer's", async () => {
    const person = await freshPerson();
    const proxied = await signIn(server, person, PROXY, xff("203.0.113.30"));
    expect(await sessionAddress(server, proxied, PROXY)).toBe("203.0.113.30");
    const direct = await signIn(server, person, "127.0.0.3", xff("203.0.113.31"));
    expect(await sessionAddress(server, direct, "127.0.0.3")).toBe("127.0.0.3");
  });

  test("X-Forwarded-Proto: https from the proxy makes the cookies Secure; from another peer it does not", async () => {
    const person = await freshPerson();
    expect((await signIn(server, person, PROXY, { "x-forwarded-proto": "https" })).every(isSecure)).toBe(true);
    expect((await signIn(server, person, PROXY, { "x-forwarded-proto": "http" })).some(isSecure)).toBe(false);
    expect((await signIn(server, person, PROXY)).some(isSecure)).toBe(false);
    expect((await signIn(server, person, "127.0.0.4", { "x-forwarded-proto": "https" })).some(isSecure)).toBe(false);
  });

  test("a page served through a TLS proxy passes the Origin check; the same Origin from another peer does not", async () => {
    const person = await freshPerson();
    const forwarded = { "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.40" };
    const cookies = await signIn(server, person, PROXY, forwarded);
    const host = new URL(server.url).host;
    const change = (from: string, headers: Record<string, string>) =>
      send(`${server.url}/api/v1/users/me/presence`, {
        from,
        headers: { ...headers, cookie: pairsOf(cookies).join("; "), "x-csrf-token": csrfOf(cookies), origin: `https://${host}` },
        form: { status: "active" },
      });
    expect((await change(PROXY, forwarded)).status).toBe(200);
    const stranger = await change("127.0.0.5", forwarded);
    expect(stranger.status).toBe(403);
    expect(stranger.json.code).toBe("CSRF_FAILED");
    // Without the proxy's word, an https Origin is not this plain-HTTP server's.
    expect((await change(PROXY, {})).json.code).toBe("CSRF_FAILED");
  });
});

describe("without PARLEY_TRUSTED_PROXIES", () => {
  let server: TestServer;
  let owner: Person;
  let anon: ApiClient;

  beforeAll(async () => {
    server = await startInitializedServer({ env: LIMITS });
    anon = new ApiClient(server.url);
    owner = await login(anon, OWNER.email, OWNER.password);
  });

  afterAll(async () => {
    await server?.dispose();
  });

  test("X-Forwarded-For is ignored: failures count against the peer, whatever address it names", async () => {
    const person = await createPerson(owner, anon, "Direct Person");
    const peer = "127.0.0.1";
    await failTimes(server, person, peer, (i) => xff(`203.0.113.${i + 1}`));
    expect((await fetchApiKey(server, person, person.password, peer, xff("203.0.113.77"))).status).toBe(429);
    expect((await fetchApiKey(server, person, person.password, peer)).status).toBe(429);
    // Another peer is another client.
    expect((await fetchApiKey(server, person, person.password, "127.0.0.6")).status).toBe(200);
  });

  test("X-Forwarded-Proto is ignored: the cookies are not Secure over plain HTTP, and the session records the peer", async () => {
    const person = await createPerson(owner, anon, "Plain Person");
    const cookies = await signIn(server, person, "127.0.0.7", { "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.8" });
    expect(cookies.some(isSecure)).toBe(false);
    expect(await sessionAddress(server, cookies, "127.0.0.7")).toBe("127.0.0.7");
  });
});

test("a trusted-proxy entry that is not an address or range refuses the start, naming it", () => {
  const dataDir = tempDataDir();
  const flag = runParley(["serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", "0", "--trusted-proxies", "127.0.0.1, proxy.example.com"]);
  expect(flag.exitCode).toBe(1);
  expect(flag.stderr.trim()).toBe("parley: Trusted proxies (--trusted-proxies): 'proxy.example.com' is not an IP address or a range such as 10.0.0.0/8 (host names are not accepted).");
  const env = runParley(["serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", "0"], { env: { PARLEY_TRUSTED_PROXIES: "10.0.0.0/33" } });
  expect(env.exitCode).toBe(1);
  expect(env.stderr.trim()).toBe("parley: Trusted proxies (PARLEY_TRUSTED_PROXIES): '10.0.0.0/33' is not an IP address or a range such as 10.0.0.0/8 (host names are not accepted).");
});
