import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../package.json";
import { MIGRATIONS } from "../src/db/migrations.generated";
import { ApiClient } from "./helpers/client";
import { OWNER, login, ok } from "./helpers/seed";
import { TestServer, runParley } from "./helpers/server";

// Every test here talks to a separate process; on a busy machine that can take longer than the 5 s default.
setDefaultTimeout(30_000);

const ROOT = join(import.meta.dir, "..");

let scratch: string;
let binary: string;
/** Where the binary runs: a directory with nothing of the checkout in it. */
let elsewhere: string;
let server: TestServer;

/**
 * `npm run build`'s own command line, writing the binary somewhere else, without the binaries
 * for other machines (`--also`: test/arm64.test.ts has those).
 */
function buildCommand(outfile: string): string[] {
  const args = pkg.scripts.build.split(/\s+/);
  expect(args.slice(0, 2)).toEqual(["bun", "scripts/build.ts"]);
  const out = args.indexOf("--outfile");
  expect(out).toBeGreaterThan(0);
  args[out + 1] = outfile;
  for (let also = args.indexOf("--also"); also >= 0; also = args.indexOf("--also")) args.splice(also, 2);
  return [process.execPath, ...args.slice(1)];
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "parley-binary-"));
  binary = join(scratch, "bin", "parley");
  const build = Bun.spawnSync(buildCommand(binary), { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);
  elsewhere = join(scratch, "elsewhere");
  mkdirSync(elsewhere);
  const init = runParley(["init", "--data-dir", "data", "--org-name", "Binary Org", "--email", OWNER.email, "--password", OWNER.password], { binary, cwd: elsewhere });
  if (init.exitCode !== 0) throw new Error(`init failed: ${init.stderr}`);
  server = await TestServer.start({ binary, cwd: elsewhere, dataDir: join(elsewhere, "data") });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the compiled binary", () => {
  test("is one executable file that knows its version and commands", () => {
    expect(existsSync(binary)).toBe(true);
    expect(runParley(["--version"], { binary, cwd: elsewhere }).stdout.trim()).toBe(`parley-${pkg.version}`);
    const help = runParley(["serve", "--help"], { binary, cwd: elsewhere });
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("--data-dir DIR");
  });

  test("created its data dir relative to where it ran, with every migration it carries applied", () => {
    const db = new Database(join(elsewhere, "data", "parley.db"), { readonly: true });
    try {
      const applied = db.query<{ tag: string }, []>("SELECT tag FROM parley_migrations ORDER BY tag").all().map((row) => row.tag);
      expect(applied).toEqual(MIGRATIONS.map((migration) => migration.tag).sort());
    } finally {
      db.close();
    }
  });

  test("serves the API over HTTP: server settings, login and an authenticated call", async () => {
    const anon = new ApiClient(server.url);
    const settings = ok(await anon.get("/server_settings"));
    expect(settings).toMatchObject({ realm_name: "Binary Org", svc_version: `parley-${pkg.version}`, zulip_version: `parley-${pkg.version}` });
    const owner = await login(anon, OWNER.email, OWNER.password);
    expect(ok(await owner.api.get("/users/me"))).toMatchObject({ user_id: owner.id, email: OWNER.email, is_owner: true });
  });

  test("carries its emoji data: :smile: renders and a reaction by name is taken", async () => {
    const owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
    const sent = ok(await owner.api.post("/messages", { type: "direct", to: JSON.stringify([owner.id]), content: "hello :smile:" }));
    const [message] = ok(await owner.api.get("/messages", { anchor: sent.id, num_before: 0, num_after: 0, narrow: [] })).messages;
    expect(message.content).toContain('class="emoji emoji-1f642"');
    ok(await owner.api.post(`/messages/${sent.id}/reactions`, { emoji_name: "tada" }));
    const unknown = await owner.api.post(`/messages/${sent.id}/reactions`, { emoji_name: "no_such_emoji_here" });
    expect(unknown.status).toBe(400);
  });

  test("backs up its running server and restores the backup, with no file of the checkout", () => {
    const backup = runParley(["backup", "--data-dir", "data", "--out", "backup.tar.gz"], { binary, cwd: elsewhere });
    expect(backup.stderr).toBe("");
    expect(backup.exitCode).toBe(0);
    const restore = runParley(["restore", "backup.tar.gz", "--data-dir", "restored"], { binary, cwd: elsewhere });
    expect(restore.stderr).toBe("");
    expect(restore.exitCode).toBe(0);
    expect(existsSync(join(elsewhere, "restored", "parley.db"))).toBe(true);
  });

  test("answers its own health check, as the container's HEALTHCHECK runs it", () => {
    const port = new URL(server.url).port;
    const result = runParley(["health"], { binary, cwd: elsewhere, env: { PARLEY_HOST: "0.0.0.0", PARLEY_PORT: port } });
    expect({ exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr }).toEqual({ exitCode: 0, stdout: `ok: http://127.0.0.1:${port}/health\n`, stderr: "" });
  });

  test("refuses a data dir that does not exist, and makes a new one with serve --init", async () => {
    const refused = runParley(["serve", "--data-dir", "fresh", "--host", "127.0.0.1", "--port", "0"], { binary, cwd: elsewhere });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`parley: The data directory ${join(elsewhere, "fresh")} does not exist.`);
    expect(existsSync(join(elsewhere, "fresh"))).toBe(false);
    const fresh = await TestServer.start({ binary, cwd: elsewhere, dataDir: join(elsewhere, "fresh"), init: true });
    try {
      expect(fresh.output).toContain(`Created a new Parley data directory at ${join(elsewhere, "fresh")}`);
      expect(fresh.setupCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      const page = await (await fetch(`${fresh.url}/`)).text();
      expect(page).toContain('src="/static/web/setup/main-');
    } finally {
      await fresh.stop();
    }
  });

  test("carries its runtime flags: a 300 KiB query string is answered, and no warning about them", async () => {
    const anon = new ApiClient(server.url);
    const owner = await login(anon, OWNER.email, OWNER.password);
    const response = await owner.api.get("/users/me", { padding: "x".repeat(300 * 1024) });
    expect(ok(response).ignored_parameters_unsupported).toEqual(["padding"]);
    expect(server.output).not.toContain("--max-http-header-size");
  });

  test("serves its pages, bundled scripts and stylesheet included, from inside the binary", async () => {
    const response = await fetch(`${server.url}/login`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/html");
    expect(await response.text()).toContain("Sign in to Binary Org");
    const signIn = await fetch(`${server.url}/login`, { method: "POST", body: new URLSearchParams({ username: OWNER.email, password: OWNER.password }), redirect: "manual" });
    expect(signIn.headers.get("location")).toBe("/");
    const cookie = signIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    const shell = await (await fetch(`${server.url}/admin/`, { headers: { cookie } })).text();
    const assets = [...shell.matchAll(/(?:src|href)="(\/static\/web\/[^"]+)"/g)].map((match) => match[1]);
    expect(assets.some((path) => path.endsWith(".js"))).toBe(true);
    expect(assets.some((path) => path.endsWith(".css"))).toBe(true);
    for (const path of assets) {
      const asset = await fetch(`${server.url}${path}`);
      expect(asset.status).toBe(200);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
  });
});
