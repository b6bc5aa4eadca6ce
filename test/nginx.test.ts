import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OWNER, startInitializedServer } from "./helpers/seed";
import type { TestServer } from "./helpers/server";

// The README's nginx snippet, as written, in front of a real Parley: sign-in over HTTPS gives
// Secure cookies, a signed-in page's change passes the CSRF Origin check, the session records
// the client's address from X-Forwarded-For, and an event long-poll goes through. Runs where
// nginx is installed (CI installs it when it can); skipped with the reason otherwise.

setDefaultTimeout(60_000);

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => Bun.file(path).size > 0);
if (!NGINX) console.warn("nginx.test.ts: skipped, nginx not installed (apt-get install nginx-light) to try the README's snippet");

const ROOT = join(import.meta.dir, "..");
const CERT = join(ROOT, "test", "fixtures", "smtp-test-cert.pem"); // localhost and 127.0.0.1
const KEY = join(ROOT, "test", "fixtures", "smtp-test-key.pem");

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The README's ```nginx block, pointed at this test's certificate, ports and loopback. */
function readmeSnippet(listenPort: number, parleyPort: number): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const block = /```nginx\n([\s\S]*?)```/.exec(readme)![1]!;
  const replaced = block
    .replace("listen 443 ssl;", `listen 127.0.0.1:${listenPort} ssl;`)
    .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${CERT};`)
    .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${KEY};`)
    .replace("proxy_pass http://127.0.0.1:8080;", `proxy_pass http://127.0.0.1:${parleyPort};`)
    // As the snippet's comment says: the public address here has a port.
    .replace("proxy_set_header Host $host;", "proxy_set_header Host $http_host;")
    // nginx talks to Parley from another loopback address than the test client's, so that the
    // client (127.0.0.1) is not itself a trusted proxy (127.0.0.2).
    .replace("proxy_http_version 1.1;", "proxy_http_version 1.1;\n        proxy_bind 127.0.0.2;");
  expect(replaced).not.toBe(block);
  return replaced;
}

describe.skipIf(!NGINX)("behind nginx, configured as the README says", () => {
  let dir = "";
  let server: TestServer;
  let nginx: ReturnType<typeof Bun.spawn> | undefined;
  let base = "";
  const ca = readFileSync(CERT, "utf8");
  const httpsFetch = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { ...init, redirect: "manual", tls: { ca } } as RequestInit);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "parley-nginx-"));
    mkdirSync(join(dir, "logs"));
    server = await startInitializedServer({ env: { PARLEY_TRUSTED_PROXIES: "127.0.0.2", PARLEY_HOST: "127.0.0.1" } });
    const listenPort = await freePort();
    const conf = `error_log ${dir}/logs/error.log;
pid ${dir}/nginx.pid;
events {}
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${readmeSnippet(listenPort, Number(new URL(server.url).port))}
}
`;
    writeFileSync(join(dir, "nginx.conf"), conf);
    nginx = Bun.spawn([NGINX!, "-p", dir, "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], { stdout: "pipe", stderr: "pipe" });
    base = `https://127.0.0.1:${listenPort}`;
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await httpsFetch("/health");
        break;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`nginx did not start: ${readFileSync(join(dir, "logs", "error.log"), "utf8")} ${error}`);
        await Bun.sleep(100);
      }
    }
  });

  afterAll(async () => {
    nginx?.kill("SIGQUIT");
    await nginx?.exited;
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test("sign-in, a change from the signed-in page, the client's address, and a long-poll", async () => {
    const signIn = await httpsFetch("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base, "x-forwarded-for": "203.0.113.9" },
      body: new URLSearchParams({ username: OWNER.email, password: OWNER.password }),
    });
    expect(signIn.status).toBe(303);
    const cookies = signIn.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toContain("Secure");
    const pairs = cookies.map((cookie) => cookie.split(";")[0]!);
    const csrf = pairs.find((pair) => pair.startsWith("parley_csrf="))!.slice("parley_csrf=".length);
    const session = { cookie: pairs.join("; "), "x-csrf-token": csrf, origin: base };

    // A change with the page's https Origin is this server's own: no CSRF_FAILED.
    const status = await httpsFetch("/api/v1/users/me/status", { method: "POST", headers: { ...session, "content-type": "application/x-www-form-urlencoded" }, body: "status_text=behind+nginx" });
    expect(await status.json()).toMatchObject({ result: "success" });

    // The session records the address nginx saw (the client's, 127.0.0.1), not the one the client
    // claimed in its own X-Forwarded-For: nginx appends its peer, and Parley takes the rightmost
    // address that is not a trusted proxy.
    const sessions = (await (await httpsFetch("/api/v1/users/me/sessions", { headers: session })).json()) as { sessions: Array<{ is_current: boolean; ip_address: string }> };
    expect(sessions.sessions.find((entry) => entry.is_current)!.ip_address).toBe("127.0.0.1");

    // An event long-poll through the proxy: it waits, then answers when a message arrives.
    const queue = (await (await httpsFetch("/api/v1/register", { method: "POST", headers: { ...session, "content-type": "application/x-www-form-urlencoded" }, body: "event_types=%5B%22message%22%5D" })).json()) as { queue_id: string; last_event_id: number };
    const poll = httpsFetch(`/api/v1/events?queue_id=${queue.queue_id}&last_event_id=${queue.last_event_id}`, { headers: session });
    await Bun.sleep(300);
    const sent = await httpsFetch("/api/v1/messages", { method: "POST", headers: { ...session, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ type: "direct", to: JSON.stringify([OWNER.email]), content: "through the proxy" }).toString() });
    const { id } = (await sent.json()) as { id: number };
    const events = (await (await poll).json()) as { events: Array<{ message?: { id: number } }> };
    expect(events.events.map((event) => event.message?.id)).toContain(id);
  });
});
