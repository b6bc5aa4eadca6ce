import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { routeTable } from "./fuzz/routeCases";
import { type Org, type Person, seedOrg } from "./helpers/seed";

// Memory a burst of hostile requests took comes back once the server goes quiet (issue 24):
// the compiled binary, as operators run it, its resident memory read from /proc. From a
// checkout the runtime holds more for the transpiled sources, and the margin would be thin.

setDefaultTimeout(120_000);

const ROOT = join(import.meta.dir, "..");
const LINUX = process.platform === "linux";

let scratch: string;
let org: Org;

beforeAll(async () => {
  if (!LINUX) return;
  scratch = mkdtempSync(join(tmpdir(), "parley-memory-"));
  const binary = join(scratch, "parley");
  const build = Bun.spawnSync([process.execPath, "scripts/build.ts", "--outfile", binary], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);
  // A look every second, so the test waits seconds rather than the default's tens of them.
  org = await seedOrg({ binary, env: { PARLEY_MEMORY_RELEASE_SECONDS: "1" } });
});

afterAll(async () => {
  await org?.server.dispose();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** VmRSS of the server in MB. */
function resident(): number {
  const status = readFileSync(`/proc/${org.server.pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}

const basic = (person: Person) => ({ authorization: `Basic ${btoa(`${person.email}:${person.apiKey}`)}` });

/**
 * Every route once, as a member (each compiles its handler and validators on first use);
 * then, as another member, 100 requests whose valid credentials trail 500 KB of junk, lists
 * of message IDs of 40 different lengths (a statement each) and 50 bodies of 1 MB.
 */
async function burst() {
  for (const route of routeTable()) {
    const path = route.path.replace(/:(\w+)/g, "1");
    if (route.method === "DELETE" && path === "/api/v1/users/me") continue;
    await (await fetch(new URL(path, org.server.url), { method: route.method, headers: basic(org.member) })).text();
  }
  for (let i = 0; i < 100; i++) {
    const authorization = `${basic(org.member2).authorization} ${String(i).padStart(3, "0")}${"x".repeat(500_000)}`;
    const response = await fetch(new URL("/api/v1/users/me", org.server.url), { headers: { authorization } });
    expect(response.status).toBe(200);
  }
  for (let i = 0; i < 40; i++) {
    const ids = JSON.stringify(Array.from({ length: 20_000 + i }, (_, j) => j + 1));
    const response = await fetch(new URL(`/api/v1/messages/matches_narrow?${new URLSearchParams({ msg_ids: ids, narrow: "[]" })}`, org.server.url), { headers: basic(org.member2) });
    expect(response.status).toBe(200);
  }
  const content = "x".repeat(1_000_000);
  for (let i = 0; i < 50; i++) {
    const body = new URLSearchParams({ type: "stream", to: "1", topic: "t", content });
    const response = await fetch(new URL("/api/v1/messages", org.server.url), { method: "POST", headers: basic(org.member2), body });
    expect(response.status).toBe(400);
  }
}

describe("memory after a burst", () => {
  test.skipIf(!LINUX)("settles within 1.3 times what the idle server held", async () => {
    await Bun.sleep(3000);
    const idle = resident();
    await burst();
    const peak = resident();
    let settled = peak;
    for (const deadline = Date.now() + 30_000; settled > 1.3 * idle && Date.now() < deadline; ) {
      await Bun.sleep(1000);
      settled = resident();
    }
    console.log(`resident memory: ${idle.toFixed(1)} MB idle, ${peak.toFixed(1)} MB after the burst, ${settled.toFixed(1)} MB settled`);
    expect(settled).toBeLessThanOrEqual(1.3 * idle);
  });
});
