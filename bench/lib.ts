import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { User } from "../src/db/users";
import { buildOrganization as buildLargeOrganization } from "../test/helpers/largeOrg";
import { parleyCommand } from "../test/helpers/server";

/** Plumbing the benchmarks share: a free loopback port, a Parley process on it, an organization. */

const ROOT = join(import.meta.dir, "..");

export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

export async function waitUntilAnswering(url: string, attempts = 300) {
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      await fetch(url);
      return;
    } catch {
      await Bun.sleep(100);
    }
  }
  throw new Error(`${url} never answered`);
}

export interface RunningParley {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A Parley process as an operator runs it: its own data dir, the default (info) log level
 * unless told otherwise, and its log going to a file in the data dir rather than through the
 * benchmark process, which would compete for the CPU.
 */
export async function startParley(dataDir: string, options: { logLevel?: string; binary?: string; env?: Record<string, string> } = {}): Promise<RunningParley> {
  const url = `http://127.0.0.1:${freePort()}`;
  // PARLEY_BENCH_PROFILE_DIR=DIR writes the server's CPU profile there when it stops.
  const profileDir = process.env.PARLEY_BENCH_PROFILE_DIR;
  const command = parleyCommand(options.binary);
  if (profileDir) command.splice(1, 0, "--cpu-prof", `--cpu-prof-dir=${profileDir}`);
  const child = Bun.spawn([...command, "serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", new URL(url).port], {
    // One account sends as fast as it can: the rate limits would measure themselves. To measure
    // what counting costs, BENCH_RATE_LIMITS=on with PARLEY_RATE_LIMIT_* set high enough.
    env: { ...process.env, PARLEY_LOG_LEVEL: options.logLevel ?? "info", PARLEY_RATE_LIMITS: process.env.BENCH_RATE_LIMITS ?? "off", ...options.env },
    stdout: Bun.file(join(dataDir, "parley.log")),
    stderr: "inherit",
  });
  await waitUntilAnswering(`${url}/api/v1/server_settings`);
  return {
    url,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

/**
 * Fills an initialized data dir through Parley's own actions: the owner plus members up to
 * `people` accounts, and public channels with these names that everyone is subscribed to
 * (test/helpers/largeOrg.ts). Returns the accounts, owner first.
 */
export const buildOrganization = (dataDir: string, people: number, channelNames: string[]): Promise<User[]> => buildLargeOrganization(dataDir, { people: people - 1, channelNames });

/**
 * Compiles the single binary as `npm run build` does (without the ARM one) to `outfile`, from
 * this checkout or another one (`tree`, which needs its node_modules; the build makes and
 * removes a `.build` directory in it).
 */
export function buildParleyBinary(outfile: string, tree = ROOT): string {
  const result = Bun.spawnSync([process.execPath, "scripts/build.ts", "--outfile", outfile], { cwd: tree, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`building Parley failed: ${result.stderr.toString()}`);
  return outfile;
}

export interface ResidentMemory {
  /** VmRSS: everything resident, MB. */
  rss: number;
  /** RssAnon: heaps, JIT code. */
  anon: number;
  /** RssFile: pages of the executable and other files it touched. */
  file: number;
  /** VmHWM: the highest VmRSS since start, or since it was reset (resetPeakMemory). */
  peak: number;
}

/** A process's resident memory in MB, from /proc (Linux). */
export function residentMemory(pid: number): ResidentMemory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)![1]) / 1024;
  return { rss: mb("VmRSS"), anon: mb("RssAnon"), file: mb("RssFile"), peak: mb("VmHWM") };
}

/** Starts the process's VmHWM afresh from its current RSS (Linux: 5 > clear_refs). */
export function resetPeakMemory(pid: number) {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/**
 * CPU time a process's threads have used so far, in ms: the sum of their /proc schedstat run
 * times, which is what /proc/PID/stat's utime + stime count, in nanoseconds rather than 10 ms
 * ticks (a round of 100 deliveries costs a few ticks). Threads that have ended are not counted.
 */
export function cpuMs(pid: number): number {
  let nanoseconds = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nanoseconds / 1e6;
}

/**
 * The runtime's inspector, opened on a loopback port by the environment alone (BUN_INSPECT, which
 * the compiled binary honours too), so that a benchmark can make a server give back what it does
 * not hold without the server having a route for it. Pass `env` to the process, then `settle()`.
 */
export function inspectorAccess() {
  const address = `127.0.0.1:${freePort()}/bench-${crypto.randomUUID()}`;
  const evaluate = async (expression: string): Promise<string> => {
    const socket = new WebSocket(`ws://${address}`);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error(`the inspector at ${address} did not answer`));
    });
    const answer = new Promise<string>((resolve) => {
      socket.onmessage = (message) => {
        const reply = JSON.parse(String(message.data));
        if (reply.id === 1) resolve(reply.result?.result?.value ?? JSON.stringify(reply));
      };
    });
    socket.send(JSON.stringify({ id: 1, method: "Runtime.evaluate", params: { expression, returnByValue: true } }));
    try {
      return await answer;
    } finally {
      socket.close();
    }
  };
  return {
    env: { BUN_INSPECT: address },
    /**
     * A full collection, compiled code dropped and free allocator pages returned (Bun.shrink, as
     * src/jobs/memoryRelease.ts does), three times over: dropping code frees objects that only
     * the next collection finds, and each call's own frame keeps what it references. Then the
     * process's memory as it reports it, in MB: resident, and the live JS heap.
     */
    async settle(): Promise<{ rss: number; heapUsed: number }> {
      let usage: { rss?: number; heapUsed: number } = { heapUsed: 0 };
      for (let i = 0; i < 3; i++) usage = JSON.parse(await evaluate("Bun.gc(true); Bun.shrink(); JSON.stringify(process.memoryUsage())"));
      if (typeof usage.rss !== "number") throw new Error(`the inspector's answer was not the memory: ${JSON.stringify(usage)}`);
      return { rss: usage.rss / 1024 / 1024, heapUsed: usage.heapUsed / 1024 / 1024 };
    },
  };
}
