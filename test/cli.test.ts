import { Database } from "bun:sqlite";
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../package.json";
import { MAX_REQUEST_HEAD_BYTES } from "../src/http/requestSize";
import { ApiClient } from "./helpers/client";
import { OWNER, expectError, login, ok, startInitializedServer } from "./helpers/seed";
import { TestServer, parleyCommand, runParley, tempDataDir } from "./helpers/server";

// Every test here starts processes; on a busy machine that takes longer than the 5 s default.
setDefaultTimeout(30_000);

const scratch = mkdtempSync(join(tmpdir(), "parley-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let nextDir = 0;
const freshDir = () => join(scratch, `dir-${nextDir++}`);

const ORG_A = { name: "First Org", email: "first@example.com", password: "first-password" };
const initArgs = (dataDir: string, org = ORG_A) => ["init", "--data-dir", dataDir, "--org-name", org.name, "--email", org.email, "--password", org.password];

/** A failure an operator can act on: a one-line `parley: ...` explanation, never a stack trace. */
function expectExplainedFailure(result: ReturnType<typeof runParley>, exitCode: number, message: RegExp) {
  expect({ exitCode: result.exitCode, stderr: result.stderr }).toMatchObject({ exitCode, stderr: expect.stringMatching(message) });
  expect(result.stderr).toStartWith("parley: ");
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

/** `parley serve` with exactly these arguments and environment, until its start line appears. */
async function startServe(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}) {
  const child = Bun.spawn([...parleyCommand(), "serve", ...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdout: "pipe", stderr: "pipe" });
  const reader = child.stdout.getReader();
  let output = "";
  const deadline = Date.now() + 15_000;
  while (!/listening on \S+ \(data in [^)]+\)/.test(output) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    output += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const stop = () => {
    child.kill("SIGTERM");
    return child.exited;
  };
  return { output, stop };
}

async function eventually(condition: () => boolean, what: string) {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

describe("help", () => {
  test("the command lists its commands", () => {
    for (const args of [["--help"], ["-h"], ["help"]]) {
      const result = runParley(args);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain("Usage: parley COMMAND");
      for (const command of ["serve", "init", "health", "version", "help"]) expect(result.stdout).toContain(`  ${command} `);
    }
  });

  test("serve explains every option, its variable and its default", () => {
    for (const args of [["serve", "--help"], ["serve", "-h"], ["help", "serve"]]) {
      const result = runParley(args);
      expect(result.exitCode).toBe(0);
      for (const text of ["--init", "--data-dir DIR", "--host HOST", "--port PORT", "PARLEY_DATA_DIR", "PARLEY_HOST", "PARLEY_PORT", "./data", "0.0.0.0", "8080", "PARLEY_LOGIN_FAILURE_LIMIT"]) {
        expect(result.stdout).toContain(text);
      }
    }
  });

  test("init explains every option", () => {
    for (const args of [["init", "--help"], ["help", "init"]]) {
      const result = runParley(args);
      expect(result.exitCode).toBe(0);
      for (const option of ["--data-dir DIR", "--org-name NAME", "--email EMAIL", "--password PASS", "--full-name NAME", "--url URL"]) expect(result.stdout).toContain(option);
    }
  });

  test("version prints parley-X.Y.Z", () => {
    for (const args of [["--version"], ["version"]]) expect(runParley(args).stdout.trim()).toBe(`parley-${pkg.version}`);
  });

  test("version says what a running server reports to clients in GET /server_settings", async () => {
    const printed = runParley(["version"]).stdout.trim();
    const server = await TestServer.start();
    try {
      const settings = ok(await new ApiClient(server.url).get("/server_settings"));
      expect({ zulip_version: settings.zulip_version, svc_version: settings.svc_version }).toEqual({ zulip_version: printed, svc_version: printed });
    } finally {
      await server.dispose();
    }
  });
});

describe("a bad invocation exits 2 with a message", () => {
  test("unknown options, missing or malformed values and unknown commands", () => {
    const cases: Array<[string[], RegExp]> = [
      [["serve", "--bogus"], /Unknown option '--bogus'[\s\S]*parley serve --help/],
      [["--bogus"], /Unknown option '--bogus'/],
      [["init", "--data-dir", freshDir(), "--colour", "red"], /Unknown option '--colour'[\s\S]*parley init --help/],
      [["serve", "--port"], /--port/],
      [["serve", "--port", "eighty"], /--port must be a number/],
      [["serve", "--port", "70000"], /--port must be a number/],
      [["serve", "stray"], /stray/],
      [["frobnicate"], /Unknown command 'frobnicate'/],
      [["help", "frobnicate"], /Unknown command 'frobnicate'/],
    ];
    for (const [args, message] of cases) expectExplainedFailure(runParley(args), 2, message);
  });

  test("init without a required option, or with a value the organization cannot have, creates nothing", () => {
    const dataDir = freshDir();
    const { password: _, ...withoutPassword } = ORG_A;
    expectExplainedFailure(runParley(["init", "--data-dir", dataDir, "--org-name", ORG_A.name, "--email", ORG_A.email]), 2, /--password is required/);
    expectExplainedFailure(runParley(initArgs(dataDir, { ...withoutPassword, password: "short" })), 2, /at least 8 characters/);
    expectExplainedFailure(runParley(initArgs(dataDir, { ...ORG_A, email: "not-an-address" })), 2, /not a valid e-mail/);
    expectExplainedFailure(runParley(initArgs(dataDir, { ...ORG_A, name: "x".repeat(41) })), 2, /at most 40 characters/);
    // Nothing was half-created: a correct init still succeeds.
    expect(runParley(initArgs(dataDir)).exitCode).toBe(0);
  });
});

describe("a command that cannot do its job exits 1 with a message", () => {
  test("a data dir that cannot be created or written", () => {
    const file = join(scratch, "a-file");
    writeFileSync(file, "not a directory");
    for (const dataDir of [join(file, "data"), file]) {
      expectExplainedFailure(runParley(initArgs(dataDir)), 1, /Cannot use data directory/);
      expectExplainedFailure(runParley(["serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", "0"]), 1, /Cannot use data directory/);
    }
  });

  test("a data dir whose database file is not a database", () => {
    const dataDir = freshDir();
    runParley(initArgs(dataDir));
    writeFileSync(join(dataDir, "parley.db"), "this is not SQLite ".repeat(100));
    rmSync(join(dataDir, "parley.db-wal"), { force: true });
    rmSync(join(dataDir, "parley.db-shm"), { force: true });
    expectExplainedFailure(runParley(["serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", "0"]), 1, /parley\.db is not a SQLite database[\s\S]*To restore/);
  });

  test("a database written by a newer Parley, which is left untouched", () => {
    const dataDir = freshDir();
    expect(runParley(initArgs(dataDir)).exitCode).toBe(0);
    const db = new Database(join(dataDir, "parley.db"));
    db.run("INSERT INTO parley_migrations (tag, applied_at) VALUES ('9999_from_the_future', 0)");
    db.close();
    expectExplainedFailure(runParley(["serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", "0"]), 1, /newer version of Parley.*9999_from_the_future/);
    expectExplainedFailure(runParley(initArgs(dataDir)), 1, /newer version of Parley/);
    const after = new Database(join(dataDir, "parley.db"), { readonly: true });
    expect(after.query("SELECT count(*) AS n FROM parley_migrations WHERE tag = '9999_from_the_future'").get()).toEqual({ n: 1 });
    expect(after.query("SELECT name FROM realms").get()).toEqual({ name: ORG_A.name });
    after.close();
  });

  test("a port already in use", () => {
    const squatter = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
    try {
      expectExplainedFailure(runParley(["serve", "--init", "--data-dir", freshDir(), "--host", "127.0.0.1", "--port", String(squatter.port)]), 1, new RegExp(`Port ${squatter.port} on 127.0.0.1 is already in use`));
    } finally {
      squatter.stop(true);
    }
  });
});

describe("init", () => {
  test("refuses a data dir that already holds an organization and leaves the first one intact", async () => {
    const dataDir = freshDir();
    const first = runParley(initArgs(dataDir));
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toContain(`Created organization '${ORG_A.name}'`);
    const second = { name: "Usurper Org", email: "usurper@example.com", password: "usurper-password" };
    expectExplainedFailure(runParley(initArgs(dataDir, second)), 1, /already holds an organization; nothing was changed/);

    const server = await TestServer.start({ dataDir });
    try {
      const anon = new ApiClient(server.url);
      expect(ok(await anon.get("/server_settings")).realm_name).toBe(ORG_A.name);
      expect((await login(anon, ORG_A.email, ORG_A.password)).email).toBe(ORG_A.email);
      expectError(await anon.post("/fetch_api_key", { username: second.email, password: second.password }), "AUTHENTICATION_FAILED", 401);
    } finally {
      await server.stop();
    }
  });
});

describe("serve", () => {
  test("announces where it listens and what to open, and logs one line per request", async () => {
    const empty = await TestServer.start();
    await empty.dispose();
    expect(empty.output).toMatch(new RegExp(`INFO Parley parley-${pkg.version} listening on ${empty.url} \\(data in ${empty.dataDir}\\)`));
    expect(empty.output).toContain(`WARN Created a new Parley database in ${empty.dataDir} (--init).`);
    expect(empty.output).toContain(`WARN This server has no organization yet. Open ${empty.url}/ in a browser to set it up.`);
    expect(empty.output).toMatch(/WARN Setup code: [A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}\n/);
    // The timed jobs wait quietly for the organization: nothing in the log looks like a failure.
    expect(empty.output).not.toContain("ERROR");

    const server = await startInitializedServer();
    try {
      expect(server.output).toContain(`INFO Open ${server.url}/ to sign in`);
      expect(server.output).not.toContain("Setup code");
      const anon = new ApiClient(server.url);
      const owner = await login(anon, OWNER.email, OWNER.password);
      ok(await owner.api.get("/users/me"));
      expectError(await anon.get("/users/me"), "UNAUTHORIZED", 401);
      await eventually(() => server.output.includes("GET /api/v1/users/me 401"), "the request log");
      expect(server.output).toMatch(new RegExp(`^\\S+Z INFO GET /api/v1/users/me 200 \\d+\\.\\dms user=${owner.id}$`, "m"));
      expect(server.output).toMatch(/^\S+Z INFO GET \/api\/v1\/users\/me 401 \d+\.\dms user=-$/m);
      expect(server.output).toMatch(/^\S+Z INFO POST \/api\/v1\/fetch_api_key 200 \d+\.\dms user=-$/m);
    } finally {
      await server.dispose();
    }
  });

  test("run by hand without the request-head flag, it still serves and says what to add", async () => {
    const dataDir = tempDataDir();
    const child = Bun.spawn([process.execPath, join(import.meta.dir, "..", "src", "main.ts"), "serve", "--init", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", "0"], { stdout: "pipe", stderr: "pipe" });
    try {
      let output = "";
      const reader = child.stdout.getReader();
      while (!output.includes("listening on")) {
        const { value, done } = await reader.read();
        if (done) break;
        output += new TextDecoder().decode(value);
      }
      expect(output).toContain(`run with --max-http-header-size=${MAX_REQUEST_HEAD_BYTES}`);
      expect(output).toContain("listening on");
    } finally {
      child.kill("SIGTERM");
      await child.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
    // The usual way (parleyCommand, as npm start) gives no such warning.
    const server = await TestServer.start();
    await server.dispose();
    expect(server.output).not.toContain("--max-http-header-size");
  });

  test("takes its data dir, host and port from PARLEY_* variables, options overriding them", async () => {
    const dataDir = freshDir();
    const squatter = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
    const fromEnv = await startServe(["--init"], { env: { PARLEY_DATA_DIR: dataDir, PARLEY_HOST: "127.0.0.1", PARLEY_PORT: "0" } });
    await fromEnv.stop();
    expect(fromEnv.output).toMatch(new RegExp(`listening on http://127\\.0\\.0\\.1:\\d+ \\(data in ${dataDir}\\)`));
    expect(existsSync(join(dataDir, "parley.db"))).toBe(true);
    // The variable names a taken port; the option wins.
    const overridden = await startServe(["--port", "0"], { env: { PARLEY_DATA_DIR: dataDir, PARLEY_HOST: "127.0.0.1", PARLEY_PORT: String(squatter.port) } });
    await overridden.stop();
    squatter.stop(true);
    expect(overridden.output).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(overridden.output).not.toContain(`:${squatter.port} `);
  });

  test("keeps its data in ./data of the directory it runs in by default", async () => {
    const cwd = freshDir();
    mkdirSync(cwd);
    const server = await startServe(["--init", "--host", "127.0.0.1", "--port", "0"], { cwd, env: { PARLEY_DATA_DIR: "" } });
    expect(await server.stop()).toBe(0);
    expect(server.output).toContain(`(data in ${join(cwd, "data")})`);
    expect(existsSync(join(cwd, "data", "parley.db"))).toBe(true);
  });

  test("keeps everything across a clean stop and a crash", async () => {
    const dataDir = tempDataDir();
    const server = await startInitializedServer({ dataDir });
    try {
      const anon = new ApiClient(server.url);
      const owner = await login(anon, OWNER.email, OWNER.password);
      const created = ok(await owner.api.post("/users", { email: "kept@example.com", password: "kept-password", full_name: "Kept Person" }));
      const kept = await login(anon, "kept@example.com", "kept-password");

      expect(await server.stop("SIGTERM")).toBe(0);
      await eventually(() => server.output.includes("Stopped cleanly"), "a clean stop");
      await server.restart();
      const again = new ApiClient(server.url);
      expect(await login(again, "kept@example.com", "kept-password")).toMatchObject({ id: created.user_id, apiKey: kept.apiKey });
      expect(ok(await again.as(kept.email, kept.apiKey).get("/users/me"))).toMatchObject({ user_id: created.user_id, full_name: "Kept Person" });
      expect(ok(await again.get("/server_settings")).realm_name).toBe("Test Org");

      // A crash loses nothing that was acknowledged.
      const crashOwner = await login(again, OWNER.email, OWNER.password);
      const late = ok(await crashOwner.api.post("/users", { email: "late@example.com", password: "late-password", full_name: "Late Person" }));
      await server.restart("SIGKILL");
      expect((await login(new ApiClient(server.url), "late@example.com", "late-password")).id).toBe(late.user_id);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
