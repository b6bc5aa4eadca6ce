import { Database } from "bun:sqlite";
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "./helpers/client";
import { OWNER, ORG_NAME, login, ok } from "./helpers/seed";
import { TestServer, parleyCommand, runParley } from "./helpers/server";

// Point 4 of issue 11: a server starts only on a data dir it can serve. Every case runs the
// real command on a real directory; a refusal must exit 1 with a `parley: ...` explanation,
// leave the directory as it was, and never get as far as listening.

setDefaultTimeout(60_000);

const scratch = mkdtempSync(join(tmpdir(), "parley-datadir-"));
// Reachable by the unprivileged user the read-only cases run as when the tests run as root.
chmodSync(scratch, 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let nextDir = 0;
const freshPath = (name = "data") => join(scratch, `${nextDir++}-${name}`);

/** A data dir that `parley init` made: an organization, nothing else. */
function initializedDir(): string {
  const dataDir = freshPath();
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", ORG_NAME, "--email", OWNER.email, "--password", OWNER.password]);
  if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
  return dataDir;
}

interface Outcome {
  started: boolean;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `parley serve ARGS` until it either exits or announces that it listens (then it is
 * stopped): a refusal that did not happen must fail the test, not hang it.
 */
async function serve(dataDir: string, extra: string[] = [], prefix: string[] = []): Promise<Outcome> {
  const child = Bun.spawn([...prefix, ...parleyCommand(), "serve", ...extra, "--data-dir", dataDir, "--host", "127.0.0.1", "--port", "0"], {
    env: { ...process.env, PARLEY_LOG_LEVEL: "info" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stderr = new Response(child.stderr).text();
  let stdout = "";
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + 20_000;
  let started = false;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += decoder.decode(value);
    if (/listening on http/.test(stdout)) {
      started = true;
      break;
    }
  }
  if (started || Date.now() >= deadline) child.kill("SIGTERM");
  const exitCode = await child.exited;
  return { started, exitCode, stdout, stderr: await stderr };
}

/** Refused at start: exit 1, one explained message, nothing served. */
function expectRefusal(outcome: Outcome, message: RegExp) {
  expect({ started: outcome.started, exitCode: outcome.exitCode }).toEqual({ started: false, exitCode: 1 });
  expect(outcome.stderr).toStartWith("parley: ");
  expect(outcome.stderr).toMatch(message);
  expect(outcome.stderr).not.toMatch(/^\s+at /m);
  expect(outcome.stdout).not.toContain("Setup code");
}

/** Names, sizes and contents of what is in a directory, to show a refusal changed nothing. */
function snapshot(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((name) => [name, Bun.hash(readFileSync(join(dir, name))).toString()]));
}

const START_NEW_ADVICE = /check --data-dir or PARLEY_DATA_DIR\. To start a new, empty server in \S+, run 'parley serve --init'/;
const RESTORE_ADVICE = /To restore: stop Parley, move \S+ aside, and put your latest backup copy of the whole data directory in its place\./;
const RECOVER_ADVICE = /Without a backup, SQLite may save part of the data: sqlite3 \S+parley\.db \.recover/;

describe("a directory with no Parley data is not a server until asked", () => {
  test("a missing directory is refused, named in full, and not created", async () => {
    const dataDir = freshPath("missing");
    const outcome = await serve(dataDir);
    expectRefusal(outcome, new RegExp(`The data directory ${dataDir} does not exist\\.`));
    expect(outcome.stderr).toMatch(START_NEW_ADVICE);
    expect(existsSync(dataDir)).toBe(false);
  });

  test("an empty directory is refused and left empty", async () => {
    const dataDir = freshPath("empty");
    mkdirSync(dataDir);
    const outcome = await serve(dataDir);
    expectRefusal(outcome, new RegExp(`The data directory ${dataDir} is empty\\.`));
    expect(outcome.stderr).toMatch(START_NEW_ADVICE);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  test("a mistyped --data-dir is refused, relative ones shown as the absolute directory they mean", async () => {
    const dataDir = initializedDir();
    // The directory above the real one (a common slip) holds files, but no database.
    const parent = join(dataDir, "..");
    const before = readdirSync(parent).sort();
    expectRefusal(await serve(parent), new RegExp(`The data directory ${scratch} holds no parley\\.db\\.`));
    expect(readdirSync(parent).sort()).toEqual(before);
    // A typo in a relative path: the message names the directory it resolved to.
    const typo = runParley(["serve", "--data-dir", "dtaa", "--host", "127.0.0.1", "--port", "0"], { cwd: dataDir });
    expect(typo.exitCode).toBe(1);
    expect(typo.stderr).toContain(`The data directory ${join(dataDir, "dtaa")} does not exist.`);
    expect(existsSync(join(dataDir, "dtaa"))).toBe(false);
  });

  test("serve --init makes a missing directory a new install and says so loudly, with a setup code", async () => {
    const dataDir = freshPath("new");
    const server = await TestServer.start({ dataDir, init: true });
    try {
      expect(server.output).toContain(`WARN Created a new Parley data directory at ${dataDir} (--init).`);
      expect(server.output).toContain(`(data in ${dataDir})`);
      expect(server.setupCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      expect(ok(await new ApiClient(server.url).get("/server_settings")).realm_name).toBeUndefined();
    } finally {
      await server.stop();
    }
    expect(existsSync(join(dataDir, "parley.db"))).toBe(true);
  });

  test("serve --init on an empty directory creates the database in it", async () => {
    const dataDir = freshPath("empty-init");
    mkdirSync(dataDir);
    const server = await TestServer.start({ dataDir, init: true });
    await server.stop();
    expect(server.output).toContain(`WARN Created a new Parley database in ${dataDir} (--init).`);
  });
});

describe("a healthy data dir", () => {
  test("restarts without --init, with nothing created and no setup code", async () => {
    const dataDir = initializedDir();
    const server = await TestServer.start({ dataDir });
    try {
      for (let start = 0; start < 2; start++) {
        if (start > 0) await server.restart();
        expect(server.output).not.toContain("Created a new");
        expect(server.output).not.toContain("Setup code");
        expect(server.output).toContain(`Open ${server.url}/ to sign in`);
        await login(new ApiClient(server.url), OWNER.email, OWNER.password);
      }
    } finally {
      await server.stop();
    }
  });

  test("serve --init on it just serves it", async () => {
    const dataDir = initializedDir();
    const server = await TestServer.start({ dataDir, init: true });
    try {
      expect(server.output).not.toContain("Created a new");
      expect(server.output).not.toContain("Setup code");
      expect(ok(await new ApiClient(server.url).get("/server_settings")).realm_name).toBe(ORG_NAME);
    } finally {
      await server.stop();
    }
  });
});

describe("a lost or damaged database is refused, even with --init, and left as it is", () => {
  test("a 0-byte parley.db", async () => {
    const dataDir = freshPath();
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, "parley.db"), "");
    for (const extra of [[], ["--init"]]) {
      const outcome = await serve(dataDir, extra);
      expectRefusal(outcome, new RegExp(`The database ${dataDir}/parley\\.db is empty \\(0 bytes\\): its data is lost\\.`));
      expect(outcome.stderr).toMatch(RESTORE_ADVICE);
    }
    expect(snapshot(dataDir)).toEqual({ "parley.db": Bun.hash("").toString() });
    const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Other", "--email", "x@example.com", "--password", "x-password"]);
    expect(init.exitCode).toBe(1);
    expect(init.stderr).toContain("is empty (0 bytes)");
  });

  test("parley.db gone while its write-ahead log or saved queues are still there", async () => {
    // A crash leaves the write-ahead log; a clean stop leaves the saved event queues.
    const crashed = initializedDir();
    const server = await TestServer.start({ dataDir: crashed });
    const owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
    ok(await owner.api.post("/messages", { type: "direct", to: [owner.id], content: "in the log" }));
    await server.stop("SIGKILL");
    expect(statSync(join(crashed, "parley.db-wal")).size).toBeGreaterThan(0);
    rmSync(join(crashed, "parley.db"));

    const stopped = initializedDir();
    const clean = await TestServer.start({ dataDir: stopped });
    expect(await clean.stop()).toBe(0);
    expect(existsSync(join(stopped, "event_queues.json"))).toBe(true);
    rmSync(join(stopped, "parley.db"));

    for (const [dataDir, left] of [[crashed, "parley.db-wal"], [stopped, "event_queues.json"]]) {
      const before = snapshot(dataDir);
      for (const extra of [[], ["--init"]]) {
        const outcome = await serve(dataDir, extra);
        expectRefusal(outcome, new RegExp(`The data directory ${dataDir} holds .*${left.replace(".", "\\.")}.* but no parley\\.db: the database was deleted or moved`));
        expect(outcome.stderr).toMatch(RESTORE_ADVICE);
      }
      expect(snapshot(dataDir)).toEqual(before);
    }
  });

  test("a file that is not a database at all", async () => {
    const dataDir = initializedDir();
    writeFileSync(join(dataDir, "parley.db"), randomBytes(64 * 1024));
    const before = snapshot(dataDir);
    const outcome = await serve(dataDir, ["--init"]);
    expectRefusal(outcome, new RegExp(`The file ${dataDir}/parley\\.db is not a SQLite database \\(SQLite says: file is not a database\\)`));
    expect(outcome.stderr).toMatch(RESTORE_ADVICE);
    expect(outcome.stderr).toMatch(RECOVER_ADVICE);
    expect(snapshot(dataDir)).toEqual(before);
  });

  test("random bytes over a page in the middle of a database in use, found at start; the backup it points to works", async () => {
    const dataDir = initializedDir();
    const server = await TestServer.start({ dataDir });
    const owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
    const text = "Words worth keeping, long enough to fill the pages of the messages table. ".repeat(6);
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(Array.from({ length: 30 }, (_, i) => owner.api.post("/messages", { type: "direct", to: [owner.id], content: `${batch * 30 + i}: ${text}` }).then(ok)));
    }
    expect(await server.stop()).toBe(0);
    const backup = `${dataDir}-backup`;
    cpSync(dataDir, backup, { recursive: true });

    // The b-tree page nearest the middle of the file, whichever table or index owns it.
    const sqlite = new Database(join(dataDir, "parley.db"), { readonly: true });
    const pageSize = (sqlite.query("PRAGMA page_size").get() as { page_size: number }).page_size;
    const pages = (sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    const target = sqlite
      .query<{ name: string; pageno: number }, [number]>("SELECT name, pageno FROM dbstat WHERE pagetype IN ('leaf', 'internal') ORDER BY abs(pageno - ?) LIMIT 1")
      .get(Math.floor(pages / 2))!;
    sqlite.close();
    // That read-only look left an empty log and its index behind; a stopped server leaves neither.
    expect(statSync(join(dataDir, "parley.db-wal")).size).toBe(0);
    for (const name of ["parley.db-wal", "parley.db-shm"]) rmSync(join(dataDir, name));
    expect(pages).toBeGreaterThan(20);
    const file = Bun.file(join(dataDir, "parley.db"));
    const bytes = new Uint8Array(await file.arrayBuffer());
    bytes.set(randomBytes(pageSize), (target.pageno - 1) * pageSize);
    await Bun.write(file, bytes);

    const before = snapshot(dataDir);
    const outcome = await serve(dataDir, ["--init"]);
    expectRefusal(outcome, new RegExp(`The database ${dataDir}/parley\\.db is damaged \\(SQLite says: [\\s\\S]+?\\)\\. Parley will not serve it`));
    expect(outcome.stderr).toMatch(RESTORE_ADVICE);
    expect(outcome.stderr).toMatch(RECOVER_ADVICE);
    expect(snapshot(dataDir)).toEqual(before);

    // As the message says: the damaged directory moved aside, the backup in its place.
    rmSync(dataDir, { recursive: true });
    cpSync(backup, dataDir, { recursive: true });
    const restored = await TestServer.start({ dataDir });
    try {
      const again = await login(new ApiClient(restored.url), OWNER.email, OWNER.password);
      const history = ok(await again.api.get("/messages", { anchor: "newest", num_before: 300, num_after: 0, narrow: [] }));
      expect(history.messages.filter((message: { content: string }) => message.content.includes("Words worth keeping")).length).toBe(300);
    } finally {
      await restored.stop();
    }
  });
});

describe("a read-only data dir is refused, not served with a 500 for every write", () => {
  // Root writes whatever the permission bits say, so as root the server runs as nobody.
  const isRoot = process.getuid?.() === 0;
  const setpriv = Bun.which("setpriv");
  const NOBODY = 65534;
  const unprivileged = isRoot && setpriv ? [setpriv, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--"] : [];
  // As nobody, the checkout must still be readable (a clone under a private home may not be).
  const canDropPrivileges =
    !isRoot || (setpriv !== null && Bun.spawnSync([...unprivileged, ...parleyCommand(), "--version"], { stdout: "pipe", stderr: "pipe" }).exitCode === 0);
  if (!canDropPrivileges) console.log("Skipping the read-only cases: running as root, and cannot run Parley as nobody (no setpriv, or the checkout is private).");
  /** An initialized data dir owned by the user the server will run as. */
  function ownedDir(): string {
    const dataDir = initializedDir();
    if (isRoot) for (const path of [dataDir, ...readdirSync(dataDir).map((name) => join(dataDir, name))]) chownSync(path, NOBODY, NOBODY);
    return dataDir;
  }

  test.skipIf(!canDropPrivileges)("a database file the server may not write", async () => {
    const dataDir = ownedDir();
    chmodSync(join(dataDir, "parley.db"), 0o444);
    const before = snapshot(dataDir);
    const outcome = await serve(dataDir, [], unprivileged);
    expectRefusal(outcome, new RegExp(`The database ${dataDir}/parley\\.db is read-only for Parley \\(user id \\d+\\), which must write to it\\. .*Give the user running Parley write access`));
    expect(snapshot(dataDir)).toEqual(before);
  });

  test.skipIf(!canDropPrivileges)("a data directory the server may not create files in", async () => {
    const dataDir = ownedDir();
    chmodSync(dataDir, 0o555);
    try {
      const outcome = await serve(dataDir, ["--init"], unprivileged);
      expectRefusal(outcome, new RegExp(`The directory ${dataDir} is read-only for Parley \\(user id \\d+\\), which must create and delete files in it`));
      expect(readdirSync(dataDir)).toEqual(["parley.db"]);
    } finally {
      chmodSync(dataDir, 0o755);
    }
  });

  // Root itself is refused where it cannot write either: an immutable file (chattr +i).
  const chattr = Bun.which("chattr");
  test.skipIf(!isRoot || chattr === null)("as root, an immutable database file", async () => {
    const dataDir = initializedDir();
    const file = join(dataDir, "parley.db");
    if (Bun.spawnSync([chattr!, "+i", file]).exitCode !== 0) {
      console.log("Skipping the immutable-file case: chattr +i is not allowed here.");
      return;
    }
    try {
      expectRefusal(await serve(dataDir), new RegExp(`The database ${file} is read-only for Parley \\(user id 0\\)`));
    } finally {
      Bun.spawnSync([chattr!, "-i", file]);
    }
  });
});

describe("the setup code of a server without an organization", () => {
  const setUp = (url: string, setupCode: string | undefined) =>
    fetch(`${url}/setup`, {
      method: "POST",
      body: new URLSearchParams({ ...(setupCode === undefined ? {} : { setup_code: setupCode }), org_name: "Coded Org", full_name: "Cody", email: "cody@example.com", password: "cody-password" }),
    });

  test("is new at every start, works once, and is gone once the organization exists", async () => {
    const server = await TestServer.start();
    try {
      const first = server.setupCode!;
      await server.restart();
      const second = server.setupCode!;
      expect(second).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      expect(second).not.toBe(first);
      const anon = new ApiClient(server.url);
      for (const code of [undefined, "", first]) {
        const refused = await setUp(server.url, code);
        expect(refused.status).toBe(403);
        expect(await refused.text()).toContain(code ? "That is not the setup code" : "Enter the setup code");
        expect(ok(await anon.get("/server_settings")).realm_name).toBeUndefined();
      }
      const accepted = await setUp(server.url, second);
      expect(accepted.status).toBe(200);
      expect(ok(await anon.get("/server_settings")).realm_name).toBe("Coded Org");
      const again = await setUp(server.url, second);
      expect(again.status).toBe(403);
      expect(await again.text()).toContain("already has an organization");
      // A set-up server prints no code at its next start.
      await server.restart();
      expect(server.setupCode).toBeUndefined();
      expect(ok(await new ApiClient(server.url).get("/server_settings")).realm_name).toBe("Coded Org");
    } finally {
      await server.dispose();
    }
  });
});
