/**
 * Authenticated GET /api/v1/users/me on Parley against a bare Bun.serve JSON hello, measured
 * the same way in the same run: wrk, keep-alive connections on loopback, a warm-up, then a
 * fixed duration. Prints requests per second for both and Parley's share of the bare figure.
 *
 *   bun bench/users-me.ts [--duration 10] [--warmup 2] [--connections 64] [--threads 2]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ORG_NAME, OWNER } from "../test/helpers/seed";
import { runParley } from "../test/helpers/server";
import { startParley } from "./lib";

const TARGET_RATIO = 0.4;

const { values: options } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "64" },
    threads: { type: "string", default: "2" },
  },
});

interface Measurement {
  requestsPerSecond: number;
  latency: Record<"p50" | "p99", string>;
}

/** wrk against one URL; refuses to report a run in which any answer was not a 2xx. */
async function wrk(url: string, headers: Record<string, string>, seconds: string): Promise<Measurement> {
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
  const child = Bun.spawn(["wrk", "--latency", "-t", options.threads!, "-c", options.connections!, "-d", `${seconds}s`, ...headerArgs, url], { stdout: "pipe", stderr: "pipe" });
  const [output, errors, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (exitCode !== 0) throw new Error(`wrk failed (${exitCode}): ${errors || output}`);
  if (/Non-2xx or 3xx responses/.test(output) || /Socket errors/.test(output)) throw new Error(`wrk saw failed requests against ${url}:\n${output}`);
  const requestsPerSecond = Number(output.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
  const percentile = (p: string) => output.match(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m"))?.[1] ?? "?";
  if (!Number.isFinite(requestsPerSecond)) throw new Error(`Could not read wrk's output:\n${output}`);
  return { requestsPerSecond, latency: { p50: percentile("50"), p99: percentile("99") } };
}

async function measure(url: string, headers: Record<string, string> = {}): Promise<Measurement> {
  await wrk(url, headers, options.warmup!);
  return wrk(url, headers, options.duration!);
}

/**
 * A Parley process as an operator runs it: its own data dir, the default (info) log level, and
 * its log going to a file rather than through this process, which would compete for the CPU.
 */
async function startInitializedParley() {
  const dataDir = mkdtempSync(join(tmpdir(), "parley-bench-"));
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", ORG_NAME, "--email", OWNER.email, "--password", OWNER.password]);
  if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
  const parley = await startParley(dataDir);
  const url = parley.url;
  const login = await fetch(`${url}/api/v1/fetch_api_key`, { method: "POST", body: new URLSearchParams({ username: OWNER.email, password: OWNER.password }) });
  const { api_key: apiKey } = (await login.json()) as { api_key: string };
  const authorization = `Basic ${btoa(`${OWNER.email}:${apiKey}`)}`;
  const check = await fetch(`${url}/api/v1/users/me`, { headers: { authorization } });
  if (check.status !== 200) throw new Error(`GET /users/me answered ${check.status}: ${await check.text()}`);
  return {
    url,
    authorization,
    async stop() {
      await parley.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const hello = JSON.stringify({ result: "success", msg: "" });
const bare = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(hello, { headers: { "content-type": "application/json" } }) });
const parley = await startInitializedParley();
try {
  console.log(`wrk: ${options.connections} keep-alive connections, ${options.threads} threads, ${options.warmup} s warm-up + ${options.duration} s per target`);
  const bareResult = await measure(`http://127.0.0.1:${bare.port}/`);
  const parleyResult = await measure(`${parley.url}/api/v1/users/me`, { Authorization: parley.authorization });
  const ratio = parleyResult.requestsPerSecond / bareResult.requestsPerSecond;
  const row = (name: string, result: Measurement) =>
    `${name.padEnd(28)}${Math.round(result.requestsPerSecond).toLocaleString("en").padStart(10)}${result.latency.p50.padStart(10)}${result.latency.p99.padStart(10)}`;
  console.log(`\n${"target".padEnd(28)}${"req/s".padStart(10)}${"p50".padStart(10)}${"p99".padStart(10)}`);
  console.log(row("bare Bun.serve hello", bareResult));
  console.log(row("Parley GET /users/me", parleyResult));
  console.log(`\nParley / bare = ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? "met" : "NOT met"})`);
  process.exitCode = ratio >= TARGET_RATIO ? 0 : 1;
} finally {
  await parley.stop();
  bare.stop(true);
}
