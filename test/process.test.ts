import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../package.json";
import { closeDatabase, openDatabase } from "../src/db/client";
import { checkHealth } from "../src/reads/health";
import { TestServer, runParley } from "./helpers/server";

// Every test here starts processes; on a busy machine that takes longer than the 5 s default.
setDefaultTimeout(60_000);

const ROOT = join(import.meta.dir, "..");
const scratch = mkdtempSync(join(tmpdir(), "parley-process-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Processes (other than this one) whose environment has NAME=VALUE, read from /proc. */
function processesWithEnv(name: string, value: string): number[] {
  const wanted = `${name}=${value}`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(wanted)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

async function eventually(condition: () => boolean, what: string, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

const answers = async (url: string) => {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
};

describe("npm start", () => {
  // npm runs a script as `sh -c "<script>"` and passes SIGTERM and SIGINT on to that child.
  // Debian's sh (dash) does not exec the last command of `sh -c`, so with a plain
  // `bun ... serve` the signal reached only sh, which died and left the server running as an
  // orphan. `exec bun ...` makes the server itself npm's child; `bun run FILE` runs the file in
  // its own process, so nothing else sits between npm and the server.
  test("the script execs the server, so a SIGTERM to npm stops it cleanly and leaves nothing running", async () => {
    expect(pkg.scripts.start).toStartWith("exec bun ");
    const npm = Bun.which("npm");
    if (!npm) throw new Error("npm is not on PATH");
    const dataDir = join(scratch, "npm-start");
    const child = Bun.spawn([npm, "start"], {
      cwd: ROOT,
      env: { ...process.env, PARLEY_DATA_DIR: dataDir, PARLEY_HOST: "127.0.0.1", PARLEY_PORT: "0", PARLEY_LOG_LEVEL: "info" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    let output = "";
    const decoder = new TextDecoder();
    const reader = child.stdout.getReader();
    const deadline = Date.now() + 30_000;
    let url: string | undefined;
    try {
      while (!url && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        output += decoder.decode(value);
        url = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
      }
      if (!url) throw new Error(`npm start did not start the server:\n${output}${await new Response(child.stderr).text()}`);
      const servers = processesWithEnv("PARLEY_DATA_DIR", dataDir).filter((pid) => pid !== child.pid);
      expect(servers.length).toBeGreaterThan(0);
      // The server is npm's own child: no shell in between.
      for (const pid of servers) expect(readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1].split(" ")[1]).toBe(String(child.pid));
      expect((await fetch(`${url}/health`)).status).toBe(200);

      process.kill(child.pid, "SIGTERM");
      (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          output += decoder.decode(value);
        }
      })();
      await Promise.race([child.exited, Bun.sleep(10_000)]);
      await eventually(() => processesWithEnv("PARLEY_DATA_DIR", dataDir).length === 0, "every process of npm start to end");
      expect(await answers(`${url}/health`)).toBe(false);
      await eventually(() => output.includes("Stopped cleanly"), "the server's clean stop");
      expect(output).toContain("Received SIGTERM; shutting down");
    } finally {
      for (const pid of processesWithEnv("PARLEY_DATA_DIR", dataDir)) process.kill(pid, "SIGKILL");
    }
  });
});

describe("the systemd unit", () => {
  const unitPath = join(ROOT, "scripts", "parley.service");

  /** The unit as systemd reads it: [Section] headers, Key=Value lines, # comments; keys may repeat. */
  function parseUnit(text: string): Record<string, Array<[string, string]>> {
    const sections: Record<string, Array<[string, string]>> = {};
    let section: string | undefined;
    for (const [index, raw] of text.split("\n").entries()) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
      const header = line.match(/^\[(\w+)\]$/);
      if (header) {
        section = header[1];
        sections[section] ??= [];
        continue;
      }
      const pair = line.match(/^([A-Za-z]+)=(.*)$/);
      if (!pair || !section) throw new Error(`line ${index + 1} is not Key=Value inside a section: ${raw}`);
      sections[section].push([pair[1], pair[2]]);
    }
    return sections;
  }

  test("runs the binary as an unprivileged user on its state directory, restarts on failure, stops with SIGTERM, hardened", () => {
    const unit = parseUnit(readFileSync(unitPath, "utf8"));
    expect(Object.keys(unit).sort()).toEqual(["Install", "Service", "Unit"]);
    const service = unit.Service;
    const last = (key: string) => service.filter(([name]) => name === key).at(-1)?.[1];
    expect({
      ExecStart: last("ExecStart"),
      User: last("User"),
      StateDirectory: last("StateDirectory"),
      Restart: last("Restart"),
      KillSignal: last("KillSignal"),
      TimeoutStopSec: last("TimeoutStopSec"),
      NoNewPrivileges: last("NoNewPrivileges"),
      ProtectSystem: last("ProtectSystem"),
      ProtectHome: last("ProtectHome"),
      PrivateTmp: last("PrivateTmp"),
      AmbientCapabilities: last("AmbientCapabilities"),
      CapabilityBoundingSet: last("CapabilityBoundingSet"),
    }).toEqual({
      ExecStart: "/usr/local/bin/parley serve",
      User: "parley",
      StateDirectory: "parley",
      Restart: "on-failure",
      KillSignal: "SIGTERM",
      TimeoutStopSec: "30",
      NoNewPrivileges: "yes",
      ProtectSystem: "strict",
      ProtectHome: "yes",
      PrivateTmp: "yes",
      AmbientCapabilities: "",
      CapabilityBoundingSet: "",
    });
    // Served from the directory systemd makes for StateDirectory=parley.
    expect(service.filter(([name]) => name === "Environment").map(([, value]) => value)).toContain("PARLEY_DATA_DIR=/var/lib/parley");
    // Without --init: a missing or empty data directory is refused, never served as a new server.
    expect(last("ExecStart")).not.toContain("--init");
    expect(unit.Install).toContainEqual(["WantedBy", "multi-user.target"]);
  });

  test("systemd itself finds nothing to object to (systemd-analyze verify, where it is installed)", () => {
    const analyze = Bun.which("systemd-analyze");
    if (!analyze) {
      console.log("systemd-analyze is not installed: the unit was checked as INI only");
      return;
    }
    // verify checks that ExecStart's program exists; point it at one that does.
    const copy = join(scratch, "parley.service");
    writeFileSync(copy, readFileSync(unitPath, "utf8").replace("ExecStart=/usr/local/bin/parley ", `ExecStart=${process.execPath} `));
    const result = Bun.spawnSync([analyze, "verify", copy], { stdout: "pipe", stderr: "pipe" });
    expect({ exitCode: result.exitCode, stderr: result.stderr.toString() }).toEqual({ exitCode: 0, stderr: "" });
  });
});

describe("GET /health and parley health", () => {
  test("a healthy server answers 200 without credentials, and parley health exits 0, by --url or from PARLEY_PORT", async () => {
    // No low-space warning on a machine short of disk: test/diskFull.test.ts tests that one.
    const server = await TestServer.start({ env: { PARLEY_DISK_LOW_MB: "0" } });
    try {
      const response = await fetch(`${server.url}/health`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toStartWith("application/json");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.json()).toEqual({ status: "ok" });

      for (const url of [server.url, `${server.url}/`, `${server.url}/health`]) {
        const byUrl = runParley(["health", "--url", url]);
        expect({ exitCode: byUrl.exitCode, stdout: byUrl.stdout, stderr: byUrl.stderr }).toEqual({ exitCode: 0, stdout: `ok: ${server.url}/health\n`, stderr: "" });
      }
      // As the container's HEALTHCHECK runs it: the address from the environment the server has.
      const port = new URL(server.url).port;
      const fromEnv = runParley(["health"], { env: { PARLEY_HOST: "0.0.0.0", PARLEY_PORT: port } });
      expect({ exitCode: fromEnv.exitCode, stdout: fromEnv.stdout }).toEqual({ exitCode: 0, stdout: `ok: http://127.0.0.1:${port}/health\n` });
    } finally {
      await server.dispose();
    }
  });

  test("a server whose data directory was deleted under it answers 503 with the reason, and parley health exits 1 saying it", async () => {
    const server = await TestServer.start();
    const moved = `${server.dataDir}-moved`;
    try {
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      // SQLite keeps working on the open (now unreachable) file: only the check notices.
      renameSync(server.dataDir, moved);
      const response = await fetch(`${server.url}/health`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { status: string; reason: string };
      expect(body).toEqual({ status: "error", reason: expect.stringContaining(`The database file ${join(server.dataDir, "parley.db")} is gone`) });
      const result = runParley(["health", "--url", server.url]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toStartWith(`parley: Parley at ${server.url}/health is unhealthy: The database file ${join(server.dataDir, "parley.db")} is gone`);
    } finally {
      await server.stop();
      rmSync(moved, { recursive: true, force: true });
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  });

  test("the check reports a database that no longer answers", async () => {
    const dataDir = join(scratch, "in-process");
    openDatabase(dataDir, { newInstall: "allow" });
    try {
      expect(await checkHealth()).toEqual({ ok: true });
    } finally {
      closeDatabase();
    }
    expect(await checkHealth()).toEqual({ ok: false, reason: "The database does not answer: The database is not open" });
  });

  test("parley health against nothing, something else or a bad address exits non-zero with a clear message", async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const freePort = probe.port;
    probe.stop(true);
    const nothing = runParley(["health", "--url", `http://127.0.0.1:${freePort}`]);
    expect({ exitCode: nothing.exitCode, stderr: nothing.stderr }).toEqual({
      exitCode: 1,
      stderr: `parley: Nothing answers at http://127.0.0.1:${freePort}/health (connection refused): is Parley running, and on this address and port? Give its address with --url.\n`,
    });

    // Something else on the port: run in a child, since runParley blocks this process.
    const other = Bun.spawn([process.execPath, "-e", `const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("not found", { status: 404 }) }); console.log(s.port);`], { stdout: "pipe" });
    try {
      const reader = other.stdout.getReader();
      const port = new TextDecoder().decode((await reader.read()).value).trim();
      const result = runParley(["health", "--url", `http://127.0.0.1:${port}`]);
      expect({ exitCode: result.exitCode, stderr: result.stderr }).toEqual({ exitCode: 1, stderr: `parley: http://127.0.0.1:${port}/health answered HTTP 404, not Parley's health check: is this Parley's address?\n` });
    } finally {
      other.kill();
      await other.exited;
    }

    const bad = runParley(["health", "--url", "not a url"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toStartWith("parley: --url must be a URL");
    const help = runParley(["health", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("--url URL");
  });
});
