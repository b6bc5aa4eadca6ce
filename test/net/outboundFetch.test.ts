import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnswerTooLarge, outboundFetch, type OutboundRequest } from "../../src/net/outboundFetch";
import { configureOutboundPolicy, RequestRefused, type Resolver } from "../../src/net/outboundPolicy";

/**
 * A request under the outgoing-request policy (net/outboundFetch.ts), against real receivers on
 * loopback (allowed here, as PARLEY_WEBHOOK_ALLOW_LOOPBACK allows them) and a resolver given by
 * the test: the connection goes to the address that was checked, whatever the name answers
 * next; https is verified against the name; redirects, answer sizes and time stay bounded.
 */

interface Seen {
  host: string | null;
  path: string;
}

/** A resolver whose answers are scripted per lookup, counting them. */
function scriptedResolver(answers: string[][]): Resolver & { calls: number } {
  const resolve = Object.assign(async () => answers[Math.min(resolve.calls++, answers.length - 1)], { calls: 0 });
  return resolve;
}

const request = (overrides: Partial<OutboundRequest> = {}): OutboundRequest => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: "{}",
  timeoutMs: 5000,
  maxAnswerBytes: 1 << 20,
  ownUrl: "http://chat.parley.test",
  ...overrides,
});

let checked: ReturnType<typeof Bun.serve>;
let rebound: ReturnType<typeof Bun.serve>;
const seenByChecked: Seen[] = [];
const seenByRebound: Seen[] = [];

beforeAll(() => {
  configureOutboundPolicy({ allowLoopback: true, ownPort: null });
  const record = (seen: Seen[]) => (incoming: Request) => {
    const path = new URL(incoming.url).pathname;
    seen.push({ host: incoming.headers.get("host"), path });
    if (path === "/redirect") return new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${checked.port}/elsewhere` } });
    if (path === "/huge") return new Response(new ReadableStream({ pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024)) }));
    if (path === "/declared-huge") return new Response("x".repeat(4096));
    if (path === "/hang") return new Promise<Response>(() => {});
    return Response.json({ answered_by: seen === seenByChecked ? "checked" : "rebound" });
  };
  // The same port on two loopback addresses: the name's first answer and its later one.
  checked = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: record(seenByChecked) });
  rebound = Bun.serve({ hostname: "127.0.0.2", port: checked.port, fetch: record(seenByRebound) });
});

afterAll(() => {
  configureOutboundPolicy({ allowLoopback: false, ownPort: null });
  checked?.stop(true);
  rebound?.stop(true);
});

describe("DNS rebinding", () => {
  test("the name is resolved once and the connection goes to the address checked, with the name in Host", async () => {
    // First answer 127.0.0.1, every later one 127.0.0.2: a second lookup would reach `rebound`.
    const resolve = scriptedResolver([["127.0.0.1"], ["127.0.0.2"]]);
    const answer = await outboundFetch(`http://hooks.parley.test:${checked.port}/hook?x=1`, request({ resolve }));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ answered_by: "checked" });
    expect(resolve.calls).toBe(1);
    expect(seenByChecked.at(-1)).toEqual({ host: `hooks.parley.test:${checked.port}`, path: "/hook" });
    expect(seenByRebound).toEqual([]);
  });

  test("a name whose answer turns local is refused before anything is sent", async () => {
    configureOutboundPolicy({ allowLoopback: false, ownPort: null });
    try {
      const before = seenByChecked.length + seenByRebound.length;
      const resolve = scriptedResolver([["127.0.0.2"], ["93.184.215.14"]]);
      const error = await outboundFetch(`http://hooks.parley.test:${checked.port}/hook`, request({ resolve })).catch((caught) => caught);
      expect(error).toBeInstanceOf(RequestRefused);
      expect(error.message).toContain("'hooks.parley.test' resolves to a local address (127.0.0.2)");
      expect(resolve.calls).toBe(1);
      expect(seenByChecked.length + seenByRebound.length).toBe(before);
    } finally {
      configureOutboundPolicy({ allowLoopback: true, ownPort: null });
    }
  });
});

describe("bounds", () => {
  test("a redirect is answered, not followed", async () => {
    const before = seenByChecked.length;
    const answer = await outboundFetch(`http://127.0.0.1:${checked.port}/redirect`, request());
    expect(answer.status).toBe(302);
    expect(seenByChecked.slice(before).map((seen) => seen.path)).toEqual(["/redirect"]);
  });

  test("an answer longer than the caller reads is dropped, declared or streamed", async () => {
    for (const path of ["/huge", "/declared-huge"]) {
      const error = await outboundFetch(`http://127.0.0.1:${checked.port}${path}`, request({ maxAnswerBytes: 1024 })).catch((caught) => caught);
      expect(error).toBeInstanceOf(AnswerTooLarge);
    }
  });

  test("a service that never answers, or a lookup that never ends, runs into the deadline", async () => {
    const started = Date.now();
    const hung = await outboundFetch(`http://127.0.0.1:${checked.port}/hang`, request({ timeoutMs: 300 })).catch((caught) => caught);
    expect(hung.name).toBe("TimeoutError");
    const stuck = await outboundFetch(`http://slow.parley.test:${checked.port}/`, request({ timeoutMs: 300, resolve: () => new Promise(() => {}) })).catch((caught) => caught);
    expect(stuck.name).toBe("TimeoutError");
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

const openssl = Bun.which("openssl");
if (!openssl) console.warn("outboundFetch.test.ts: https tests skipped, no openssl on this machine to make a test certificate");

describe.skipIf(!openssl)("https to the checked address", () => {
  let dir = "";
  let ca = "";
  let secure: ReturnType<typeof Bun.serve>;
  const hosts: (string | null)[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "parley-outbound-"));
    // A certificate for the name only: no IP address in it, so connecting to 127.0.0.1 works
    // only if the name is what the certificate is checked against (and sent in SNI).
    const made = Bun.spawnSync([openssl!, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=hooks.parley.test", "-addext", "subjectAltName=DNS:hooks.parley.test", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], { stdout: "pipe", stderr: "pipe" });
    if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
    ca = readFileSync(join(dir, "cert.pem"), "utf8");
    secure = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: ca, key: readFileSync(join(dir, "key.pem"), "utf8"), serverName: "hooks.parley.test" },
      fetch: (incoming) => {
        hosts.push(incoming.headers.get("host"));
        return Response.json({ content: "over tls" });
      },
    });
  });

  afterAll(() => {
    secure?.stop(true);
    rmSync(dir, { recursive: true, force: true });
  });

  test("the certificate is verified against the URL's name while connecting to the checked address", async () => {
    const resolve = scriptedResolver([["127.0.0.1"], ["127.0.0.2"]]);
    const answer = await outboundFetch(`https://hooks.parley.test:${secure.port}/hook`, request({ resolve, ca }));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ content: "over tls" });
    expect(hosts).toEqual([`hooks.parley.test:${secure.port}`]);
    expect(resolve.calls).toBe(1);
    // The trailing dot is not part of the name the certificate is checked against.
    expect((await outboundFetch(`https://hooks.parley.test.:${secure.port}/hook`, request({ resolve: scriptedResolver([["127.0.0.1"]]), ca }))).status).toBe(200);
  });

  test("a name the certificate does not carry, or a certificate nobody vouches for, is refused by TLS", async () => {
    const before = hosts.length;
    const wrongName = await outboundFetch(`https://evil.parley.test:${secure.port}/hook`, request({ resolve: scriptedResolver([["127.0.0.1"]]), ca })).catch((caught) => caught);
    expect(wrongName.code).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    const untrusted = await outboundFetch(`https://hooks.parley.test:${secure.port}/hook`, request({ resolve: scriptedResolver([["127.0.0.1"]]) })).catch((caught) => caught);
    expect(untrusted).toBeInstanceOf(Error);
    expect(untrusted.code).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");
    const byAddress = await outboundFetch(`https://127.0.0.1:${secure.port}/hook`, request({ ca })).catch((caught) => caught);
    expect(byAddress.code).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    expect(hosts.length).toBe(before);
  });
});
