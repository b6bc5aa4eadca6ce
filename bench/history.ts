/**
 * Reading history on a large database (npm run bench:history): GET /api/v1/messages for a
 * channel + topic narrow (anchor newest, num_before 50), and for search narrows, on a
 * database of 1,000,000 messages spread over 50 channels, 500 topics and 20 senders. wrk
 * sends the requests, each to a random topic (or word), over keep-alive connections; the
 * figures are wrk's latency percentiles (target: p99 under 20 ms for the topic narrow).
 *
 *   bun bench/history.ts [--messages 1000000] [--duration 10] [--warmup 2] [--connections 1,4,16]
 *                        [--data-dir DIR]   (reuse a database built by an earlier run; kept)
 *
 * The database is built by historyData.ts.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DATABASE_FILE } from "../src/db/client";
import { OWNER } from "../test/helpers/seed";
import { random } from "../test/helpers/largeOrg";
import { buildHistory, CHANNELS, TOPICS_PER_CHANNEL, topicName, VOCABULARY } from "./historyData";
import { startParley } from "./lib";

const TARGET_P99_MS = 20;

const { values: options } = parseArgs({
  options: {
    messages: { type: "string", default: "1000000" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "1,4,16" },
    "data-dir": { type: "string" },
  },
});

// ---- Measuring ----

interface Measurement {
  requestsPerSecond: number;
  latency: Record<"p50" | "p99", string>;
}

/** wrk GETting a random one of `paths` per request; refuses runs with any non-2xx answer. */
async function wrk(url: string, paths: string[], authorization: string, connections: string, seconds: string, scriptDir: string): Promise<Measurement> {
  const script = join(scriptDir, "paths.lua");
  writeFileSync(
    script,
    [`wrk.headers["Authorization"] = "${authorization}"`, `local paths = {${paths.map((path) => JSON.stringify(path)).join(",")}}`, `request = function() return wrk.format("GET", paths[math.random(#paths)]) end`].join("\n"),
  );
  const threads = String(Math.min(2, Number(connections)));
  const child = Bun.spawn(["wrk", "--latency", "-t", threads, "-c", connections, "-d", `${seconds}s`, "-s", script, url], { stdout: "pipe", stderr: "pipe" });
  const [output, errors, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (exitCode !== 0) throw new Error(`wrk failed (${exitCode}): ${errors || output}`);
  if (/Non-2xx or 3xx responses/.test(output) || /Socket errors/.test(output)) throw new Error(`wrk saw failed requests:\n${output}`);
  const requestsPerSecond = Number(output.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
  const percentile = (p: string) => output.match(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m"))?.[1] ?? "?";
  return { requestsPerSecond, latency: { p50: percentile("50"), p99: percentile("99") } };
}

/** wrk prints latencies with units (us, ms, s). */
function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!match) return Number.NaN;
  return Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[match[2] as "us" | "ms" | "s"];
}

/**
 * Linux's CPU pressure (share of the last 60 s in which some task waited for a CPU), printed
 * with the figures: on a shared machine it says how much of p99 is other people's work.
 */
function cpuPressure(): string {
  try {
    return `${readFileSync("/proc/pressure/cpu", "utf8").match(/some avg10=[\d.]+ avg60=([\d.]+)/)?.[1] ?? "?"}%`;
  } catch {
    return "unknown";
  }
}


const messagesPath = (narrow: unknown[]) => `/api/v1/messages?${new URLSearchParams({ anchor: "newest", num_before: "50", num_after: "0", narrow: JSON.stringify(narrow) })}`;

function workloads(channelIds: number[]) {
  const next = random(7);
  const topicPaths = Array.from({ length: 200 }, () => {
    const channel = Math.floor(next() * CHANNELS);
    return messagesPath([{ operator: "channel", operand: channelIds[channel] }, { operator: "topic", operand: topicName(channel, Math.floor(next() * TOPICS_PER_CHANNEL)) }]);
  });
  // Words of middling frequency (ranks 100 to 1,000): each is in roughly 1 to 8% of messages.
  const words = Array.from({ length: 200 }, () => VOCABULARY[100 + Math.floor(next() * 900)]);
  const searchPaths = words.map((word) => messagesPath([{ operator: "search", operand: word }]));
  const channelSearchPaths = words.map((word) => messagesPath([{ operator: "channel", operand: channelIds[Math.floor(next() * CHANNELS)] }, { operator: "search", operand: word }]));
  return [
    { name: "channel + topic", paths: topicPaths, target: true },
    { name: "search (all history)", paths: searchPaths, target: false },
    { name: "channel + search", paths: channelSearchPaths, target: false },
  ];
}

const reuse = options["data-dir"];
const dataDir = reuse ?? mkdtempSync(join(tmpdir(), "parley-bench-history-"));
let failed = false;
try {
  const count = Number(options.messages);
  await buildHistory(dataDir, count);
  const sqlite = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  const owner = sqlite.query("SELECT email, api_key FROM users WHERE email = ?").get(OWNER.email) as { email: string; api_key: string };
  const channelIds = sqlite.query<{ id: number }, []>("SELECT id FROM channels ORDER BY id").all().map((row) => row.id);
  const total = (sqlite.query("SELECT count(*) AS n FROM messages").get() as { n: number }).n;
  sqlite.close();
  const authorization = `Basic ${btoa(`${owner.email}:${owner.api_key}`)}`;

  const parley = await startParley(dataDir, { logLevel: "warn" });
  try {
    console.log(`\n${total.toLocaleString("en")} messages; GET /messages anchor=newest num_before=50; wrk ${options.warmup} s warm-up + ${options.duration} s per row`);
    console.log(`CPU pressure before: ${cpuPressure()} of the last minute with tasks waiting for a CPU`);
    console.log(`\n${"narrow".padEnd(24)}${"conns".padStart(6)}${"req/s".padStart(9)}${"p50".padStart(10)}${"p99".padStart(10)}`);
    for (const workload of workloads(channelIds)) {
      for (const connections of options.connections!.split(",")) {
        await wrk(parley.url, workload.paths, authorization, connections, options.warmup!, dataDir);
        const result = await wrk(parley.url, workload.paths, authorization, connections, options.duration!, dataDir);
        const p99 = milliseconds(result.latency.p99);
        const verdict = workload.target ? (p99 < TARGET_P99_MS ? "  met" : "  NOT met") : "";
        if (workload.target && connections === "1" && !(p99 < TARGET_P99_MS)) failed = true;
        console.log(`${workload.name.padEnd(24)}${connections.padStart(6)}${Math.round(result.requestsPerSecond).toLocaleString("en").padStart(9)}${result.latency.p50.padStart(10)}${result.latency.p99.padStart(10)}${verdict}`);
      }
    }
    console.log(`\nCPU pressure after: ${cpuPressure()}`);
    console.log(`Target: channel + topic p99 under ${TARGET_P99_MS} ms (judged on one connection: with more, p99 adds queueing behind the others).`);
  } finally {
    await parley.stop();
  }
} finally {
  if (!reuse) rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
