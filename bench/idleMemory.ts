/**
 * Idle memory (npm run bench:memory): the resident memory of the compiled binary doing
 * nothing, against a bare `Bun.serve` hello compiled the same way, in one run.
 *
 * Targets, each a process of its own, `--rounds` of each:
 *  - bare: a `bun build --compile` of a Bun.serve that answers "hello", after one request;
 *  - Parley idle: `parley init` in a fresh data dir, `parley serve` on it, then a few requests
 *    (server settings, sign-in, own user);
 *  - Parley + N queues: the same, then N event queues registered (full register each).
 * Each target's VmRSS, RssAnon (heaps, JIT code) and RssFile (pages of the executable it
 * touched) are read from /proc/PID/status at each `--at` time after it got ready, and printed
 * as medians over the rounds with their ratio to bare.
 *
 * Memory keeps falling for a minute or two after the last request (the JavaScript engine
 * drops code it no longer runs, the allocators return pages), so the figures that count are
 * the late ones. To keep the run short every process waits at once: they are idle, and what
 * one holds does not change what another does.
 *
 *   bun bench/idleMemory.ts [--rounds 3] [--at 5,180] [--queues 100] [--binary PATH ...]
 *
 * Without --binary it builds one with `npm run build`'s script into a temp dir. Several
 * --binary options measure each of them in the same run (before/after a change).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import type { Subprocess } from "bun";
import { ApiClient } from "../test/helpers/client";
import { OWNER, login, ok } from "../test/helpers/seed";
import { runParley } from "../test/helpers/server";
import { buildParleyBinary, freePort, type ResidentMemory, residentMemory, waitUntilAnswering } from "./lib";

const ROOT = join(import.meta.dir, "..");

const { values: options } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    at: { type: "string", default: "5,180" },
    queues: { type: "string", default: "100" },
    binary: { type: "string", multiple: true },
  },
});
const ROUNDS = Number(options.rounds);
const CHECKPOINTS = options.at!.split(",").map(Number);
const QUEUES = Number(options.queues);
if (!(ROUNDS > 0) || CHECKPOINTS.some((seconds) => !(seconds >= 0)) || !(QUEUES >= 0)) throw new Error("--rounds, --at and --queues take positive numbers");

type Memory = Pick<ResidentMemory, "rss" | "anon" | "file">;

const scratch = mkdtempSync(join(tmpdir(), "parley-idle-memory-"));

function compile(args: string[], what: string) {
  const result = Bun.spawnSync([process.execPath, ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`building ${what} failed: ${result.stderr.toString()}`);
}

/** The baseline, compiled as Parley is: the least a Bun server binary holds in memory. */
function buildBare(): string {
  const source = join(scratch, "bare.ts");
  writeFileSync(source, `const server = Bun.serve({ hostname: "127.0.0.1", port: Number(process.argv[2]), fetch: () => new Response("hello") });\nconsole.log(server.url.href);\n`);
  const outfile = join(scratch, "bare");
  compile(["build", "--compile", source, "--outfile", outfile], "the bare server");
  return outfile;
}

const running: Subprocess[] = [];

async function startBare(binary: string): Promise<number> {
  const port = freePort();
  const child = Bun.spawn([binary, String(port)], { stdout: "ignore", stderr: "inherit" });
  running.push(child);
  await waitUntilAnswering(`http://127.0.0.1:${port}/`);
  return child.pid;
}

async function startParley(binary: string, queues: number): Promise<number> {
  const dataDir = mkdtempSync(join(scratch, "data-"));
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Bench", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName], { binary });
  if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
  const port = freePort();
  const child = Bun.spawn([binary, "serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", String(port)], {
    // One user holds every queue here, so the per-user cap (50 by default) is raised past them,
    // and registers them faster than the rate limits allow.
    env: { ...process.env, PARLEY_LOG_LEVEL: "info", PARLEY_MAX_QUEUES_PER_USER: String(Math.max(queues, 50)), PARLEY_RATE_LIMITS: "off" },
    stdout: Bun.file(join(dataDir, "parley.log")),
    stderr: "inherit",
  });
  running.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${url}/api/v1/server_settings`);
  const owner = await login(new ApiClient(url), OWNER.email, OWNER.password);
  ok(await owner.api.get("/users/me"));
  for (let i = 0; i < queues; i++) ok(await owner.api.post("/register", {}));
  return child.pid;
}

interface Target {
  label: string;
  start(): Promise<number>;
  /** Per checkpoint, one sample per round. */
  samples: Memory[][];
}

/** Reads the process's memory at each checkpoint after `readyAt`. */
async function watch(target: Target, pid: number, readyAt: number) {
  for (const [index, seconds] of CHECKPOINTS.entries()) {
    await Bun.sleep(Math.max(0, readyAt + seconds * 1000 - performance.now()));
    target.samples[index].push(residentMemory(pid));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const medianMemory = (samples: Memory[]): Memory => ({ rss: median(samples.map((m) => m.rss)), anon: median(samples.map((m) => m.anon)), file: median(samples.map((m) => m.file)) });

function printTable(seconds: number, rows: Array<[string, Memory]>) {
  const baseline = rows[0][1];
  const width = Math.max(...rows.map(([label]) => label.length));
  const cell = (value: number, base: number) => `${value.toFixed(1).padStart(6)} (${(value / base).toFixed(2)}×)`.padStart(15);
  console.log(`\n${seconds} s after the last request: MB, median of ${ROUNDS} (ratio to bare)`);
  console.log(`${"target".padEnd(width)}  ${"VmRSS".padStart(15)}  ${"RssAnon".padStart(15)}  ${"RssFile".padStart(15)}`);
  for (const [label, m] of rows) console.log(`${label.padEnd(width)}  ${cell(m.rss, baseline.rss)}  ${cell(m.anon, baseline.anon)}  ${cell(m.file, baseline.file)}`);
}

try {
  const bare = buildBare();
  const binaries = options.binary?.length ? options.binary : [buildParleyBinary(join(scratch, "parley"))];
  const targets: Target[] = [{ label: "bare Bun.serve hello", start: () => startBare(bare), samples: [] }];
  for (const binary of binaries) {
    const name = binaries.length > 1 ? `${basename(binary)} ` : "Parley ";
    targets.push({ label: `${name}idle`, start: () => startParley(binary, 0), samples: [] });
    if (QUEUES > 0) targets.push({ label: `${name}+ ${QUEUES} queues`, start: () => startParley(binary, QUEUES), samples: [] });
  }
  for (const target of targets) target.samples = CHECKPOINTS.map(() => []);
  // Started one at a time (a start is busy), in rounds across the targets; then all wait together.
  const watching: Promise<void>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const pid = await target.start();
      watching.push(watch(target, pid, performance.now()));
    }
  }
  process.stderr.write(`${running.length} processes started; waiting ${Math.max(...CHECKPOINTS)} s\n`);
  await Promise.all(watching);
  for (const [index, seconds] of CHECKPOINTS.entries()) printTable(seconds, targets.map((target) => [target.label, medianMemory(target.samples[index])]));
} finally {
  for (const child of running) child.kill("SIGKILL");
  await Promise.all(running.map((child) => child.exited));
  rmSync(scratch, { recursive: true, force: true });
}
