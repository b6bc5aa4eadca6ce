import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OWNER, startInitializedServer } from "./helpers/seed";
import { runParley, type TestServer } from "./helpers/server";

/** `parley serve --tls-cert FILE --tls-key FILE`: HTTPS served directly, and clear refusals. */

setDefaultTimeout(60_000);

const openssl = Bun.which("openssl");
if (!openssl) console.warn("tls.test.ts: skipped, no openssl on this machine to make a test certificate");

let dir = "";
let certFile = "";
let keyFile = "";
let caPem = "";
let server: TestServer;

/** A self-signed certificate for 127.0.0.1 valid for a day, and its key, written into `dir`. */
function makeCertificate(dir: string, name: string) {
  const keyout = join(dir, `${name}.key.pem`);
  const out = join(dir, `${name}.cert.pem`);
  const made = Bun.spawnSync([openssl!, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", keyout, "-out", out], { stdout: "pipe", stderr: "pipe" });
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  return { cert: out, key: keyout };
}

/** fetch trusting only the test certificate, as a client given the server's CA would. */
const tlsFetch = (url: string, init: RequestInit = {}) => fetch(url, { ...init, tls: { ca: caPem } } as RequestInit);

describe.skipIf(!openssl)("serving HTTPS directly", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "parley-tls-"));
    ({ cert: certFile, key: keyFile } = makeCertificate(dir, "server"));
    caPem = readFileSync(certFile, "utf8");
    server = await startInitializedServer({ env: { PARLEY_TLS_CERT: certFile, PARLEY_TLS_KEY: keyFile } });
  });

  afterAll(async () => {
    await server?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("the start line says https, and the API answers over TLS", async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(server.output).toContain(`Open ${server.url}/ to sign in`);
    const response = await tlsFetch(`${server.url}/api/v1/server_settings`);
    expect(response.status).toBe(200);
    expect((await response.json()).result).toBe("success");
    // Not checking the certificate works too, as a quick `curl -k` would.
    const unchecked = await fetch(`${server.url}/api/v1/server_settings`, { tls: { rejectUnauthorized: false } } as RequestInit);
    expect(unchecked.status).toBe(200);
  });

  test("a client that does not trust the certificate is refused it", async () => {
    await expect(fetch(`${server.url}/api/v1/server_settings`)).rejects.toThrow();
  });

  test("plain HTTP on the HTTPS port gets no API answer", async () => {
    const plain = await fetch(server.url.replace("https:", "http:") + "/api/v1/server_settings").then(
      (response) => response.status,
      () => "refused",
    );
    expect(plain).not.toBe(200);
  });

  test("sign-in cookies are Secure, and a signed-in page's change with its Origin is accepted", async () => {
    const signIn = await tlsFetch(`${server.url}/login`, { method: "POST", body: new URLSearchParams({ username: OWNER.email, password: OWNER.password }), redirect: "manual" });
    expect(signIn.status).toBe(303);
    const cookies = signIn.headers.getSetCookie();
    expect(cookies.length).toBe(2);
    for (const cookie of cookies) expect(cookie.split("; ")).toContain("Secure");
    const pairs = cookies.map((cookie) => cookie.split(";")[0]);
    const csrf = pairs.find((pair) => pair.startsWith("parley_csrf="))!.slice("parley_csrf=".length);
    const change = await tlsFetch(`${server.url}/api/v1/users/me/presence`, {
      method: "POST",
      headers: { cookie: pairs.join("; "), "x-csrf-token": csrf, origin: server.url },
      body: new URLSearchParams({ status: "active" }),
    });
    expect(change.status).toBe(200);
  });
});

describe.skipIf(!openssl)("refusing to start on a bad certificate or key", () => {
  let work = "";
  let cert = "";
  let key = "";
  let otherKey = "";
  let junk = "";
  let dataDir = "";

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "parley-tls-bad-"));
    ({ cert, key } = makeCertificate(work, "good"));
    otherKey = makeCertificate(work, "stranger").key;
    junk = join(work, "junk.pem");
    writeFileSync(junk, "not a PEM file\n");
    mkdirSync(join(work, "a-directory"));
    dataDir = join(work, "data");
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Starts `serve --init` on a data dir that does not exist yet; a refusal must leave it so. */
  function refused(args: string[], env: Record<string, string> = {}) {
    const result = runParley(["serve", "--init", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", "0", ...args], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(dataDir)).toBe(false);
    return result.stderr.trim();
  }

  test("a certificate file that does not exist is named", () => {
    const missing = join(work, "missing.pem");
    expect(refused(["--tls-cert", missing, "--tls-key", key])).toBe(`parley: The TLS certificate file '${missing}' does not exist; check --tls-cert or PARLEY_TLS_CERT.`);
    expect(refused([], { PARLEY_TLS_CERT: cert, PARLEY_TLS_KEY: missing })).toBe(`parley: The TLS key file '${missing}' does not exist; check --tls-key or PARLEY_TLS_KEY.`);
  });

  test("a directory instead of a file is named", () => {
    const folder = join(work, "a-directory");
    expect(refused(["--tls-cert", folder, "--tls-key", key])).toBe(`parley: The TLS certificate file '${folder}' is a directory, not a file; check --tls-cert or PARLEY_TLS_CERT.`);
  });

  test("a file that holds no certificate, or no key, is named", () => {
    expect(refused(["--tls-cert", junk, "--tls-key", key])).toContain(`The TLS certificate file '${junk}' holds no PEM certificate`);
    // The two swapped: the certificate given as the key.
    expect(refused(["--tls-cert", cert, "--tls-key", cert])).toContain(`The TLS key file '${cert}' holds no PEM private key`);
  });

  test("a key that does not belong to the certificate is refused", () => {
    expect(refused(["--tls-cert", cert, "--tls-key", otherKey])).toBe(`parley: The TLS key in '${otherKey}' does not belong to the certificate in '${cert}'; give the key the certificate was issued for.`);
  });

  test("a certificate without its key, or a key without its certificate", () => {
    expect(refused(["--tls-cert", cert])).toContain("give both --tls-cert and --tls-key");
    expect(refused([], { PARLEY_TLS_KEY: key })).toContain("give both --tls-cert and --tls-key");
  });
});
