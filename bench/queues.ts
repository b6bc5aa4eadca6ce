/**
 * Many event queues, and what they cost at a graceful restart (npm run bench:queues):
 *  1. one user registers N queues over HTTP (the per-user cap raised to N unless given);
 *     prints the time per register with few and with N queues present, and the server's RSS;
 *  2. sends 100 channel messages of 5 KB, which every queue gets; prints messages per second;
 *  3. stops the server with SIGTERM and prints how long the stop took, the peak RSS of the
 *     process during it (VmHWM reset, then polled until it exits) and the saved file's size;
 *  4. starts it again on the same data dir and prints how long until it answers, and checks
 *     that a queue came back with every message.
 *
 *   bun bench/queues.ts [--queues 1000] [--messages 100] [--size 5000]
 *                       [--per-user-cap N] [--total-cap N] [--entry path/to/src/main.ts]
 *
 * --total-cap below --queues makes the last registers each drop the longest-idle queue, to
 * time that path. --entry runs another checkout's server (an older build, to compare).
 */
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ApiClient } from "../test/helpers/client";
import { OWNER, login, ok, type Person } from "../test/helpers/seed";
import { parleyCommand, runParley, tempDataDir } from "../test/helpers/server";
import { freePort, waitUntilAnswering } from "./lib";

const { values: options } = parseArgs({
  options: {
    queues: { type: "string", default: "1000" },
    messages: { type: "string", default: "100" },
    size: { type: "string", default: "5000" },
    "per-user-cap": { type: "string" },
    "total-cap": { type: "string" },
    entry: { type: "string" },
  },
});
const QUEUES = Number(options.queues);
const MESSAGES = Number(options.messages);
const SIZE = Number(options.size);
const PER_USER_CAP = options["per-user-cap"] ?? String(QUEUES);
const TOTAL_CAP = options["total-cap"] ?? String(Math.max(QUEUES, 20_000));
const REGISTER_CONCURRENCY = 20;
/** Registers timed one at a time, at the start and at the end. */
const TIMED_REGISTERS = 200;
const CHANNEL = "bench";

const status = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

interface Server {
  url: string;
  pid: number;
  exited: Promise<number>;
  kill(signal: "SIGTERM" | "SIGKILL"): void;
}

async function startServer(dataDir: string): Promise<Server> {
  const url = `http://127.0.0.1:${freePort()}`;
  const command = options.entry ? [process.execPath, options.entry] : parleyCommand();
  const child = Bun.spawn([...command, "serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", new URL(url).port], {
    env: { ...process.env, PARLEY_LOG_LEVEL: "info", PARLEY_MAX_QUEUES_PER_USER: PER_USER_CAP, PARLEY_MAX_QUEUES_TOTAL: TOTAL_CAP },
    stdout: Bun.file(join(dataDir, `parley-${Date.now()}.log`)),
    stderr: "inherit",
  });
  await waitUntilAnswering(`${url}/api/v1/server_settings`);
  return { url, pid: child.pid, exited: child.exited, kill: (signal) => child.kill(signal) };
}

const register = async (person: Person) => ok(await person.api.post("/register", { event_types: ["message"], fetch_event_types: [] })).queue_id as string;

/** Mean milliseconds of `count` registers made one after another. */
async function timedRegisters(person: Person, count: number, into: string[]): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) into.push(await register(person));
  return (performance.now() - started) / count;
}

async function main() {
  const dataDir = tempDataDir();
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Bench", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName]);
  if (init.exitCode !== 0) throw new Error(init.stderr);
  try {
    let server = await startServer(dataDir);
    let owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
    ok(await owner.api.post("/users/me/subscriptions", { subscriptions: [{ name: CHANNEL }] }));
    console.log(`${QUEUES} queues of one user (per-user cap ${PER_USER_CAP}, server cap ${TOTAL_CAP}), ${MESSAGES} messages of ${SIZE} bytes${options.entry ? `, server ${options.entry}` : ""}`);
    const rssBefore = status(server.pid, "VmRSS");

    const queueIds: string[] = [];
    const firstMs = await timedRegisters(owner, Math.min(TIMED_REGISTERS, QUEUES), queueIds);
    const bulk = Math.max(0, QUEUES - 2 * TIMED_REGISTERS);
    const bulkStarted = performance.now();
    for (let done = 0; done < bulk; done += REGISTER_CONCURRENCY) {
      const batch = await Promise.all(Array.from({ length: Math.min(REGISTER_CONCURRENCY, bulk - done) }, () => register(owner)));
      queueIds.push(...batch);
    }
    const bulkSeconds = (performance.now() - bulkStarted) / 1000;
    const lastMs = await timedRegisters(owner, Math.max(0, Math.min(TIMED_REGISTERS, QUEUES - TIMED_REGISTERS)), queueIds);
    const rssQueues = status(server.pid, "VmRSS");
    console.log(`register: ${firstMs.toFixed(2)} ms each with few queues, ${lastMs.toFixed(2)} ms each with ~${QUEUES} present; ${bulk} more at ${(bulk / bulkSeconds).toFixed(0)}/s (${REGISTER_CONCURRENCY} in parallel)`);
    console.log(`RSS: ${mb(rssBefore)} before, ${mb(rssQueues)} with the queues`);

    const content = `Bench message: ${"0123456789abcdef ".repeat(Math.ceil(SIZE / 17))}`.slice(0, SIZE);
    const sendStarted = performance.now();
    for (let i = 0; i < MESSAGES; i++) ok(await owner.api.post("/messages", { type: "channel", to: CHANNEL, topic: "queues", content: `${i} ${content}` }));
    const sendSeconds = (performance.now() - sendStarted) / 1000;
    console.log(`send: ${(MESSAGES / sendSeconds).toFixed(0)} msg/s (one at a time); RSS after ${mb(status(server.pid, "VmRSS"))}`);

    // Peak RSS over the stop alone: the high-water mark is reset first (Linux: 5 > clear_refs),
    // then polled until the process is gone.
    const rssAtStop = status(server.pid, "VmRSS");
    try {
      writeFileSync(`/proc/${server.pid}/clear_refs`, "5");
    } catch {}
    let peakKb = status(server.pid, "VmHWM");
    const poll = setInterval(() => {
      // A process that has exited but not been reaped has no memory lines: NaN, skipped.
      try {
        const now = status(server.pid, "VmHWM");
        if (now > peakKb) peakKb = now;
      } catch {}
    }, 2);
    const stopStarted = performance.now();
    server.kill("SIGTERM");
    const exitCode = await server.exited;
    const stopMs = performance.now() - stopStarted;
    clearInterval(poll);
    const file = join(dataDir, "event_queues.json");
    let fileBytes = 0;
    try {
      fileBytes = statSync(file).size;
    } catch {}
    console.log(`stop: exit ${exitCode} in ${stopMs.toFixed(0)} ms; RSS ${mb(rssAtStop)} before, peak ${mb(peakKb)} during; queue file ${(fileBytes / 1024 / 1024).toFixed(1)} MB`);

    const startStarted = performance.now();
    server = await startServer(dataDir);
    const startMs = performance.now() - startStarted;
    owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
    const last = queueIds.at(-1)!;
    const answer = await owner.api.get("/events", { queue_id: last, last_event_id: -1, dont_block: true });
    const restored = answer.status === 200 ? answer.body.events.length : `none (${answer.body.code})`;
    console.log(`start again: answering after ${startMs.toFixed(0)} ms; RSS ${mb(status(server.pid, "VmRSS"))}; the last queue holds ${restored} events (expected ${MESSAGES + 1})`);
    server.kill("SIGKILL");
    await server.exited;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
