/**
 * Sending channel messages (npm run bench:send): POST /api/v1/messages to a channel of 50
 * subscribers, each with a live event queue long-polled by this process, against a bare
 * Bun.serve + bun:sqlite (WAL) server that parses the same form body, inserts a row and answers
 * its ID, both measured by wrk the same way in one run. Prints messages per second for both and
 * Parley's share of the bare figure (target: at least 0.3).
 *
 * Both are warmed up first (Parley's JIT takes several seconds to settle), then measured in
 * alternating rounds, so a change in the machine's speed during the run moves both; the
 * figure that counts is the median of the rounds' ratios.
 *
 *   bun bench/send.ts [--rounds 3] [--duration 5] [--warmup 10] [--connections 64] [--threads 2] [--without-queues]
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DATABASE_FILE } from "../src/db/client";
import { type User } from "../src/db/users";
import { OWNER } from "../test/helpers/seed";
import { runParley } from "../test/helpers/server";
import { buildOrganization, startParley } from "./lib";

const TARGET_RATIO = 0.3;
const SUBSCRIBERS = 50;
const CHANNEL = "bench";

const { values: options } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    threads: { type: "string", default: "2" },
    /** Leave out the 50 live queues, to see what delivering to them costs. */
    "without-queues": { type: "boolean", default: false },
    "serve-bare": { type: "string" },
  },
});

const BODY = new URLSearchParams({ type: "stream", to: CHANNEL, topic: "load", content: "Hello from **wrk**: a message of ordinary length, with a little markdown in it.", client: "website" }).toString();

interface Measurement {
  requestsPerSecond: number;
  requests: number;
  latency: Record<"p50" | "p99", string>;
  /** CPU time the server spent per request: unlike req/s, barely moved by other load on the machine. */
  cpuMicrosPerRequest: number;
  /** The part of it spent in the kernel (sockets, mostly). */
  systemMicrosPerRequest: number;
}

/** wrk POSTing BODY; refuses to report a run in which any answer was not a 2xx. */
async function wrk(url: string, authorization: string | null, seconds: string, scriptDir: string): Promise<Measurement> {
  const script = join(scriptDir, "post.lua");
  const headers = [`wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"`, authorization ? `wrk.headers["Authorization"] = "${authorization}"` : ""];
  writeFileSync(script, [`wrk.method = "POST"`, `wrk.body = "${BODY}"`, ...headers].join("\n"));
  const child = Bun.spawn(["wrk", "--latency", "-t", options.threads!, "-c", options.connections!, "-d", `${seconds}s`, "-s", script, url], { stdout: "pipe", stderr: "pipe" });
  const [output, errors, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (exitCode !== 0) throw new Error(`wrk failed (${exitCode}): ${errors || output}`);
  if (/Non-2xx or 3xx responses/.test(output) || /Socket errors/.test(output)) throw new Error(`wrk saw failed requests against ${url}:\n${output}`);
  const requestsPerSecond = Number(output.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
  const requests = Number(output.match(/(\d+) requests in/)?.[1]);
  const percentile = (p: string) => output.match(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m"))?.[1] ?? "?";
  if (!Number.isFinite(requestsPerSecond)) throw new Error(`Could not read wrk's output:\n${output}`);
  return { requestsPerSecond, requests, latency: { p50: percentile("50"), p99: percentile("99") }, cpuMicrosPerRequest: NaN, systemMicrosPerRequest: NaN };
}

/** Seconds of CPU a process has used so far, in user space and in the kernel (Linux /proc). */
function cpuSecondsOf(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // utime and stime, fields 14 and 15 of the line, in clock ticks (100 per second on Linux).
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

async function measure(url: string, authorization: string | null, scriptDir: string, serverPid: number): Promise<Measurement> {
  const before = cpuSecondsOf(serverPid);
  const result = await wrk(url, authorization, options.duration!, scriptDir);
  const after = cpuSecondsOf(serverPid);
  const perRequest = (seconds: number) => (seconds * 1e6) / result.requests;
  return { ...result, cpuMicrosPerRequest: perRequest(after.user + after.system - before.user - before.system), systemMicrosPerRequest: perRequest(after.system - before.system) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The baseline: what one insert-and-commit per form POST costs with nothing else around it.
 * It runs in a process of its own (this file with --serve-bare), like Parley: sharing this
 * process would make it pay for the pollers' garbage collection.
 */
function serveBare(dataDir: string) {
  const sqlite = new Database(join(dataDir, "bare.db"), { create: true, strict: true });
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL, content TEXT NOT NULL)");
  // run() and lastInsertRowid rather than RETURNING with get(): get() leaves the statement
  // open, so no checkpoint ever completes and the WAL grows by gigabytes in a run, slowing the
  // baseline down round after round.
  const insert = sqlite.prepare("INSERT INTO messages (topic, content) VALUES (?, ?)");
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const form = await request.formData();
      const id = Number(insert.run(String(form.get("topic")), String(form.get("content"))).lastInsertRowid);
      return Response.json({ result: "success", msg: "", id });
    },
  });
  console.log(`http://127.0.0.1:${server.port}/`);
}

async function startBare(dataDir: string) {
  const child = Bun.spawn([process.execPath, import.meta.path, "--serve-bare", dataDir], { stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  let output = "";
  while (!output.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("The bare server exited before it was ready");
    output += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    url: output.trim(),
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

const basic = (user: User) => `Basic ${btoa(`${user.email}:${user.apiKey}`)}`;

/**
 * One live client per subscriber: registers a queue for message events and long-polls it
 * without pause, as a browser tab does. The clients share the machine with the server, so
 * they read only what re-polling needs from each answer (the last event ID, at its end) and
 * count message events, rather than parsing 50 copies of every message.
 */
const MESSAGE_EVENT = '{"type":"message",';

function startPollers(url: string, people: User[]) {
  let running = true;
  let delivered = 0;
  let answers = 0;
  const loops = people.map(async (person) => {
    const headers = { authorization: basic(person), "content-type": "application/x-www-form-urlencoded" };
    const registered = await (await fetch(`${url}/api/v1/register`, { method: "POST", headers, body: new URLSearchParams({ event_types: '["message"]', fetch_event_types: "[]" }) })).json();
    let lastEventId = -1;
    while (running) {
      const query = new URLSearchParams({ queue_id: registered.queue_id, last_event_id: String(lastEventId) });
      const answer = await (await fetch(`${url}/api/v1/events?${query}`, { headers })).text();
      if (!answer.startsWith('{"result":"success"')) throw new Error(`GET /events failed: ${answer.slice(0, 300)}`);
      // Each event's own ID is its last field: `..., "id": N}` closes the list. Searched from
      // the end, so an answer's ~50 KB are not scanned by a regular expression.
      const end = answer.lastIndexOf('}],"queue_id"');
      if (end > 0) lastEventId = Number(answer.slice(answer.lastIndexOf('"id":', end) + 5, end));
      answers++;
      for (let at = answer.indexOf(MESSAGE_EVENT); at !== -1; at = answer.indexOf(MESSAGE_EVENT, at + MESSAGE_EVENT.length)) delivered++;
    }
  });
  return {
    delivered: () => delivered,
    answers: () => answers,
    async stop() {
      running = false;
      // A final message wakes every long-poll so the loops can notice.
      if (people.length > 0) await fetch(`${url}/api/v1/messages`, { method: "POST", headers: { authorization: basic(people[0]), "content-type": "application/x-www-form-urlencoded" }, body: BODY });
      await Promise.all(loops);
    },
  };
}

if (options["serve-bare"]) {
  serveBare(options["serve-bare"]);
} else {
  await main();
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "parley-bench-send-"));
  const bare = await startBare(dataDir);
  try {
    const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Bench", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName]);
    if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
    const people = await buildOrganization(dataDir, SUBSCRIBERS, [CHANNEL]);
    const parley = await startParley(dataDir, { logLevel: process.env.BENCH_LOG ?? "info" });
    try {
      console.log(`wrk: ${options.connections} keep-alive connections, ${options.threads} threads; ${options.warmup} s warm-up each, then ${options.rounds} rounds of ${options.duration} s per target`);
      console.log(`Parley: channel of ${SUBSCRIBERS} subscribers${options["without-queues"] ? ", no event queues" : ", each with a live long-polling event queue"}`);
      const target = { bare: { url: bare.url, authorization: null, pid: bare.pid }, parley: { url: `${parley.url}/api/v1/messages`, authorization: basic(people[0]), pid: parley.pid } };
      const pollers = startPollers(parley.url, options["without-queues"] ? [] : people);
      await Bun.sleep(500);
      for (const { url, authorization } of Object.values(target)) await wrk(url, authorization, options.warmup!, dataDir);

      const row = (name: string, result: Measurement, ratio = "") =>
        `${name.padEnd(44)}${Math.round(result.requestsPerSecond).toLocaleString("en").padStart(10)}${result.latency.p50.padStart(10)}${result.latency.p99.padStart(10)}${`${Math.round(result.cpuMicrosPerRequest)} µs`.padStart(16)}${`${Math.round(result.systemMicrosPerRequest)} µs`.padStart(12)}${ratio.padStart(10)}`;
      console.log(`\n${"target".padEnd(44)}${"msg/s".padStart(10)}${"p50".padStart(10)}${"p99".padStart(10)}${"server CPU/msg".padStart(16)}${"in kernel".padStart(12)}${"ratio".padStart(10)}`);
      const ratios: number[] = [];
      const cpuRatios: number[] = [];
      let pollerSeconds = 0;
      for (let round = 1; round <= Number(options.rounds); round++) {
        const bareResult = await measure(target.bare.url, target.bare.authorization, dataDir, target.bare.pid);
        const pollerCpu = process.cpuUsage();
        const parleyResult = await measure(target.parley.url, target.parley.authorization, dataDir, target.parley.pid);
        const pollerCpuUsed = process.cpuUsage(pollerCpu);
        pollerSeconds += (pollerCpuUsed.user + pollerCpuUsed.system) / 1e6;
        ratios.push(parleyResult.requestsPerSecond / bareResult.requestsPerSecond);
        cpuRatios.push(bareResult.cpuMicrosPerRequest / parleyResult.cpuMicrosPerRequest);
        console.log(row(`round ${round}: bare Bun.serve + bun:sqlite insert`, bareResult));
        console.log(row(`round ${round}: Parley POST /messages`, parleyResult, ratios.at(-1)!.toFixed(2)));
      }
      await pollers.stop();
      const stored = new Database(join(dataDir, DATABASE_FILE), { readonly: true }).query("SELECT count(*) AS n FROM messages").get() as { n: number };
      const ratio = median(ratios);
      console.log(`\n${stored.n.toLocaleString("en")} messages stored; ${pollers.delivered().toLocaleString("en")} message events delivered to the ${SUBSCRIBERS} long-polling clients in ${pollers.answers().toLocaleString("en")} answers to GET /events`);
      console.log(`The pollers (this process) used ${pollerSeconds.toFixed(1)} s of CPU while Parley was measured`);
      console.log(`Parley / bare = ${ratio.toFixed(2)}, median of ${ratios.length} rounds (target >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? "met" : "NOT met"})`);
      console.log(`CPU cost: bare / Parley per message = ${median(cpuRatios).toFixed(2)}, median (the same comparison, less moved by other load)`);
      process.exitCode = ratio >= TARGET_RATIO ? 0 : 1;
    } finally {
      await parley.stop();
    }
  } finally {
    await bare.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
