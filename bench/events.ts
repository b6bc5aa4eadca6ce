/**
 * Event delivery (npm run bench:events), through the real HTTP path, against a bare fan-out
 * server behind the same clients in the same run:
 *  1. Latency and CPU of a message event: one person POSTs /messages to a channel whose other
 *     subscribers each long-poll a queue; from just before the POST to when each long-poll's
 *     answer began to arrive, p50/p95/p99 over the rounds, at each --queues size (the queues of
 *     one size stay for the next). The server's CPU from just before the POST until it has gone
 *     quiet again (every answer sent and every re-poll taken), per delivered event. The same
 *     clients do the same against bench/fanoutServer.ts, which answers every held GET when a
 *     POST arrives: its latency is the floor the clients and the kernel impose.
 *  2. Memory per idle queue: a server of its own, a full collection forced (through the
 *     runtime's inspector, see inspectorAccess in lib.ts) before reading its memory without
 *     queues and with --idle-queues queues of one person.
 *
 * The clients are --clients processes (bench/longPollers.ts), each with a share of the queues of
 * every target, so that no one of them is what is measured. Rounds alternate between the
 * targets (bare, then each binary), so that the machine changing speed moves them all.
 *
 *   bun bench/events.ts [--queues 100,1000,5000] [--rounds 20] [--warmup 3] [--clients 4]
 *                       [--idle-queues 5000] [--data-dir DIR]
 *                       [--binary PATH ...] [--tree DIR ...]
 *
 * Without --binary or --tree it builds this checkout's binary. Each --binary (a built `parley`)
 * and --tree (a checkout with its node_modules, built here) is measured in the same run, for
 * before/after comparisons. Rounds per size are --rounds, but at most 50,000 deliveries' worth.
 * The organization (5,001 people: adding each person announces it to everyone, so building it
 * takes 1-2 minutes) is kept in --data-dir when given and reused by later runs; each server gets
 * a copy of it.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Subprocess } from "bun";
import type { User } from "../src/db/users";
import { ApiClient } from "../test/helpers/client";
import { OWNER, login, ok } from "../test/helpers/seed";
import { runParley } from "../test/helpers/server";
import { buildOrganization, buildParleyBinary, cpuMs, inspectorAccess, type RunningParley, startParley } from "./lib";
import { type FromPollers, MARKER, type Poll, type ToPollers } from "./longPollers";

const { values: options } = parseArgs({
  options: {
    queues: { type: "string", default: "100,1000,5000" },
    rounds: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    clients: { type: "string", default: "4" },
    "idle-queues": { type: "string", default: "5000" },
    "data-dir": { type: "string" },
    binary: { type: "string", multiple: true, default: [] },
    tree: { type: "string", multiple: true, default: [] },
  },
});
const SIZES = options.queues!.split(",").map(Number);
const ROUNDS = Number(options.rounds);
const WARMUP = Number(options.warmup);
const CLIENTS = Number(options.clients);
const IDLE_QUEUES = Number(options["idle-queues"]);
if (SIZES.some((size, i) => !(size > 0) || (i > 0 && size <= SIZES[i - 1])) || !(ROUNDS > 0) || !(WARMUP >= 0) || !(CLIENTS > 0) || !(IDLE_QUEUES >= 0)) {
  throw new Error("--queues takes growing positive numbers; --rounds, --clients, --warmup and --idle-queues positive numbers");
}
const MAX_DELIVERIES_PER_SIZE = 50_000;
const REGISTER_CONCURRENCY = 50;
const CONTENT = "Hello from the fan-out benchmark: a message of ordinary length, with a little **markdown** in it.";

const started = performance.now();
const progress = (what: string) => process.stderr.write(`${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s  ${what}\n`);

const scratch = mkdtempSync(join(tmpdir(), "parley-bench-events-"));
const cleanups: Array<() => Promise<unknown> | unknown> = [];

const basic = (user: { email: string; apiKey: string }) => `Basic ${btoa(`${user.email}:${user.apiKey}`)}`;

/** A server the clients long-poll: Parley (one per binary) or the bare fan-out server. */
interface Target {
  name: string;
  url: string;
  pid: number;
  /** POSTs the round's message; resolves when it is answered. */
  send(round: number): Promise<void>;
  /** Queues for the people people[from..to) (bare: as many placeholders). */
  queues(from: number, to: number): Promise<Poll[]>;
  latencies: Map<number, number[]>;
  cpu: Map<number, { serverMs: number; clientMs: number; deliveries: number; bytes: number }>;
}

const emptyFigures = () => ({ latencies: new Map<number, number[]>(), cpu: new Map() });

async function startBare(): Promise<Target> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "fanoutServer.ts")], { stdout: "pipe", stderr: "inherit" });
  cleanups.push(() => child.kill("SIGKILL"));
  const reader = child.stdout.getReader();
  let output = "";
  while (!output.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the bare fan-out server exited before it was ready");
    output += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const url = output.trim().replace(/\/$/, "");
  return {
    name: "bare fan-out",
    url,
    pid: child.pid,
    async send(round) {
      const answer = await fetch(`${url}/api/v1/messages`, { method: "POST", body: new URLSearchParams({ type: "stream", to: "bench", topic: "fan-out", content: `${MARKER}${round}x ${CONTENT}` }) });
      if (!answer.ok) throw new Error(`the bare server answered ${answer.status}`);
    },
    async queues(from, to) {
      return Array.from({ length: to - from }, (_, i) => ({ queueId: `bare-${from + i}`, authorization: "none" }));
    },
    ...emptyFigures(),
  };
}

/** The channel each size sends to: the first `size` people other than the sender are subscribed. */
const channelOf = (size: number) => `fan-out ${size}`;

/** What the benchmark needs of each person: who, and their credentials. */
type Person = Pick<User, "id" | "email" | "apiKey">;

async function startTarget(name: string, binary: string, organization: string, people: Person[]): Promise<Target> {
  const dataDir = mkdtempSync(join(scratch, "parley-"));
  cpSync(organization, dataDir, { recursive: true });
  const parley: RunningParley = await startParley(dataDir, { binary });
  cleanups.push(() => parley.stop());
  const sender = new ApiClient(parley.url, people[0].email, people[0].apiKey);
  // The largest size's channel was made with the organization, everyone in it; the others here.
  for (const size of SIZES.slice(0, -1)) {
    ok(await sender.post("/users/me/subscriptions", { subscriptions: [{ name: channelOf(size) }], principals: people.slice(0, size + 1).map((person) => person.id) }));
  }
  let channel = "";
  return {
    name,
    url: parley.url,
    pid: parley.pid,
    async send(round) {
      ok(await sender.post("/messages", { type: "stream", to: channel, topic: "fan-out", content: `${MARKER}${round}x ${CONTENT}` }));
    },
    async queues(from, to) {
      channel = channelOf(to);
      const polls: Poll[] = [];
      for (let start = from; start < to; start += REGISTER_CONCURRENCY) {
        const batch = people.slice(1 + start, 1 + Math.min(to, start + REGISTER_CONCURRENCY));
        const registered = await Promise.all(batch.map((person) => new ApiClient(parley.url, person.email, person.apiKey).post("/register", { event_types: ["message"], fetch_event_types: [] })));
        registered.forEach((answer, i) => polls.push({ queueId: ok(answer).queue_id, authorization: basic(batch[i]) }));
      }
      return polls;
    },
    ...emptyFigures(),
  };
}

/** The client processes, and the rounds they report. */
function startClients() {
  const waiting = new Map<string, { left: number; arrivals: number[]; bytes: number; done: () => void }>();
  const children: Subprocess[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const child = Bun.spawn([process.execPath, join(import.meta.dir, "longPollers.ts")], {
      stdout: "inherit",
      stderr: "inherit",
      ipc(message: FromPollers) {
        const key = message.type === "added" ? `added ${message.target}` : `${message.target} ${message.round}`;
        const wait = waiting.get(key)!;
        if (message.type === "round") {
          wait.arrivals.push(...message.arrivals);
          wait.bytes += message.bytes;
        }
        if (--wait.left === 0) wait.done();
      },
    });
    void child.exited.then((code) => {
      if (!stopping) {
        console.error(`a client process exited (${code})`);
        process.exit(1);
      }
    });
    children.push(child);
  }
  cleanups.push(() => {
    stopping = true;
    for (const child of children) child.kill("SIGTERM");
    return Promise.all(children.map((child) => child.exited));
  });
  const expect = (key: string, left: number, seconds: number) =>
    new Promise<{ arrivals: number[]; bytes: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${key}: no answer from the clients within ${seconds} s`)), seconds * 1000);
      const entry = { left, arrivals: [] as number[], bytes: 0, done: () => (clearTimeout(timer), waiting.delete(key), resolve(entry)) };
      waiting.set(key, entry);
    });
  /** Clients holding polls of each target: a round is over when each has reported. */
  const holding = new Map<string, number>();
  return {
    pids: children.map((child) => child.pid),
    /** Shares the polls out between the clients, which open them. */
    async add(target: Target, polls: Poll[]) {
      const shares = children.map((_, i) => polls.filter((_, index) => index % CLIENTS === i));
      const used = shares.filter((share) => share.length > 0).length;
      const added = expect(`added ${target.name}`, used, 120);
      shares.forEach((share, i) => share.length > 0 && children[i].send({ type: "add", target: target.name, url: target.url, polls: share } satisfies ToPollers));
      await added;
      holding.set(target.name, Math.max(holding.get(target.name) ?? 0, used));
    },
    /** Resolves with the arrivals of every answer carrying the round's message. */
    round: (target: Target, round: number) => expect(`${target.name} ${round}`, holding.get(target.name)!, 60),
  };
}
let stopping = false;

/** The clients first (started last), so that no server closes a poll they still hold. */
async function stopAll() {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

const now = () => performance.timeOrigin + performance.now();

/** Waits until the process has used no CPU for a while: every answer sent, every re-poll taken. */
async function quiet(pid: number) {
  let last = cpuMs(pid);
  for (let still = 0; still < 3; ) {
    await Bun.sleep(20);
    const cpu = cpuMs(pid);
    still = cpu - last < 0.5 ? still + 1 : 0;
    last = cpu;
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

async function round(target: Target, clients: ReturnType<typeof startClients>, size: number, number: number, measured: boolean) {
  await quiet(target.pid);
  const delivered = clients.round(target, number);
  const serverBefore = cpuMs(target.pid);
  const clientBefore = sum(clients.pids.map(cpuMs));
  const sentAt = now();
  await target.send(number);
  const { arrivals, bytes } = await delivered;
  await quiet(target.pid);
  if (!measured) return;
  target.latencies.get(size)!.push(...arrivals.map((arrivedAt) => arrivedAt - sentAt));
  const cpu = target.cpu.get(size)!;
  cpu.serverMs += cpuMs(target.pid) - serverBefore;
  cpu.clientMs += sum(clients.pids.map(cpuMs)) - clientBefore;
  cpu.deliveries += arrivals.length;
  cpu.bytes += bytes;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function latencyBench(binaries: Array<{ name: string; binary: string }>) {
  const largest = SIZES.at(-1)!;
  const organization = options["data-dir"] ?? join(scratch, "organization");
  const peopleFile = join(organization, `bench-events-people-${largest}.json`);
  let people: Person[];
  if (existsSync(peopleFile)) {
    people = JSON.parse(readFileSync(peopleFile, "utf8"));
    progress(`organization of ${people.length} people reused from ${organization}`);
  } else {
    const init = runParley(["init", "--data-dir", organization, "--org-name", "Bench", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName]);
    if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
    people = await buildOrganization(organization, largest + 1, [channelOf(largest)]);
    writeFileSync(peopleFile, JSON.stringify(people.map(({ id, email, apiKey }) => ({ id, email, apiKey }))));
    progress(`organization of ${people.length} people built`);
  }
  const targets = [await startBare()];
  for (const { name, binary } of binaries) targets.push(await startTarget(name, binary, organization, people));
  progress("servers started");
  const clients = startClients();
  let number = 0;
  let previous = 0;
  for (const size of SIZES) {
    const began = performance.now();
    for (const target of targets) {
      await clients.add(target, await target.queues(previous, size));
      target.latencies.set(size, []);
      target.cpu.set(size, { serverMs: 0, clientMs: 0, deliveries: 0, bytes: 0 });
    }
    const rounds = Math.min(ROUNDS, Math.ceil(MAX_DELIVERIES_PER_SIZE / size));
    for (let i = 0; i < WARMUP + rounds; i++) for (const target of targets) await round(target, clients, size, number++, i >= WARMUP);
    progress(`${size} queues: ${rounds} rounds after ${WARMUP} to warm up, ${((performance.now() - began) / 1000).toFixed(0)} s`);
    previous = size;
  }
  return targets;
}

function printLatency(targets: Target[]) {
  const [bare, ...parleys] = targets;
  const ms = (value: number) => value.toFixed(1).padStart(7);
  const µs = (value: number) => value.toFixed(0).padStart(7);
  const figures = (target: Target, size: number) => {
    const sorted = [...target.latencies.get(size)!].sort((a, b) => a - b);
    const cpu = target.cpu.get(size)!;
    return {
      latency: `${ms(percentile(sorted, 50))}${ms(percentile(sorted, 95))}${ms(percentile(sorted, 99))}`,
      server: (cpu.serverMs * 1000) / cpu.deliveries,
      client: (cpu.clientMs * 1000) / cpu.deliveries,
      bytes: cpu.bytes / cpu.deliveries,
      deliveries: cpu.deliveries,
    };
  };
  console.log(`\nMessage event latency, POST /messages sent to answer arriving, ms; CPU per delivered event, µs (${CLIENTS} client processes)`);
  console.log(`${"queues".padStart(7)}  ${"server".padEnd(24)}${"p50".padStart(7)}${"p95".padStart(7)}${"p99".padStart(7)}   ${"bare p50".padStart(9)}${"p95".padStart(7)}${"p99".padStart(7)}${"CPU".padStart(8)}${"bare CPU".padStart(9)}${"clients".padStart(9)}${"bare cl.".padStart(9)}`);
  for (const size of SIZES) {
    const floor = figures(bare, size);
    for (const parley of parleys) {
      const own = figures(parley, size);
      console.log(`${String(size).padStart(7)}  ${parley.name.slice(-24).padEnd(24)}${own.latency}     ${floor.latency}${µs(own.server)} ${µs(floor.server)}  ${µs(own.client)}  ${µs(floor.client)}`);
    }
  }
  for (const size of SIZES) {
    const floor = figures(bare, size);
    const sizes = parleys.map((parley) => `${parley.name} ${figures(parley, size).bytes.toFixed(0)}`).join(", ");
    console.log(`${size} queues: ${floor.deliveries.toLocaleString("en")} deliveries per target measured; answer bytes: bare ${floor.bytes.toFixed(0)}, ${sizes}`);
  }
}

/** RSS and live JS heap, after a full collection, without queues and with IDLE_QUEUES of one person. */
async function memoryBench(name: string, binary: string) {
  const dataDir = mkdtempSync(join(scratch, "memory-"));
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Bench", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName], { binary });
  if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
  const inspector = inspectorAccess();
  // One person holds every queue here, so the per-user cap (50 by default) is raised past them.
  const parley = await startParley(dataDir, { binary, env: { ...inspector.env, PARLEY_MAX_QUEUES_PER_USER: String(IDLE_QUEUES) } });
  try {
    const owner = await login(new ApiClient(parley.url), OWNER.email, OWNER.password);
    const register = async () => ok(await owner.api.post("/register", {})).queue_id as string;
    const inBatches = async (count: number, task: () => Promise<unknown>) => {
      for (let done = 0; done < count; done += REGISTER_CONCURRENCY) await Promise.all(Array.from({ length: Math.min(REGISTER_CONCURRENCY, count - done) }, task));
    };
    // Warm up: code paths compiled and pools allocated before the baseline is taken.
    await inBatches(500, async () => ok(await owner.api.delete("/events", { queue_id: await register() })));
    const before = await inspector.settle();
    await inBatches(IDLE_QUEUES, register);
    const after = await inspector.settle();
    progress(`${name}: memory measured`);
    const perQueueKb = (mb: number) => ((mb * 1024) / IDLE_QUEUES).toFixed(2);
    console.log(
      `${name}: RSS ${before.rss.toFixed(1)} -> ${after.rss.toFixed(1)} MB, ${perQueueKb(after.rss - before.rss)} KB per queue; ` +
        `live JS heap ${before.heapUsed.toFixed(1)} -> ${after.heapUsed.toFixed(1)} MB, ${perQueueKb(after.heapUsed - before.heapUsed)} KB per queue`,
    );
  } finally {
    await parley.stop();
  }
}

try {
  const binaries = [
    ...options.binary!.map((binary) => ({ name: binary, binary })),
    ...options.tree!.map((tree, i) => ({ name: `tree ${tree}`, binary: buildParleyBinary(join(scratch, `parley-tree-${i}`), tree) })),
  ];
  if (binaries.length === 0) binaries.push({ name: "this checkout", binary: buildParleyBinary(join(scratch, "parley")) });
  progress("binaries ready");
  const targets = await latencyBench(binaries);
  printLatency(targets);
  console.log(`(machine load average ${(await Bun.file("/proc/loadavg").text()).split(" ")[0]} on ${navigator.hardwareConcurrency} cores at the end)`);
  await stopAll();
  if (IDLE_QUEUES > 0) {
    console.log(`\n${IDLE_QUEUES.toLocaleString("en")} idle queues of one person (full register each), after a full collection:`);
    for (const { name, binary } of binaries) await memoryBench(name, binary);
  }
} finally {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
}
