/**
 * Event queue benchmark (npm run bench:events), through the real HTTP path:
 *  1. 1,000 queues long-polling at once; a settings change publishes one event to all of them;
 *     latency from sending the change to each long-poll's answer, p50/p99 over many rounds.
 *  2. Resident memory per idle queue: server RSS before and after registering 10,000 queues.
 * The server runs as its own process, as in production; this process is the clients.
 */
import { readFileSync, rmSync } from "node:fs";
import type { Subprocess } from "bun";
import { ApiClient } from "../test/helpers/client";
import { OWNER, login, ok, type Person } from "../test/helpers/seed";
import { parleyCommand, runParley, tempDataDir } from "../test/helpers/server";

const POLLERS = 1_000;
const ROUNDS = 20;
const IDLE_QUEUES = 10_000;
const REGISTER_CONCURRENCY = 50;
const PARK_MS = 1_500;

interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function startServer(): Promise<Server> {
  const dataDir = tempDataDir();
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Bench", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName]);
  if (init.exitCode !== 0) throw new Error(init.stderr);
  const child: Subprocess<"ignore", "pipe", "inherit"> = Bun.spawn([...parleyCommand(), "serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", "0"], {
    // At the default log level, as in production (it also prints the "listening on" line read here).
    // One user holds every queue here, so the per-user cap (50 by default) is raised past them.
    env: { ...process.env, PARLEY_LOG_LEVEL: "info", PARLEY_MAX_QUEUES_PER_USER: String(IDLE_QUEUES) },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  let output = "";
  while (!/listening on (http:\/\/\S+:\d+)/.test(output)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server did not start: ${output}`);
    output += new TextDecoder().decode(value);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return {
    url: /listening on (http:\/\/\S+:\d+)/.exec(output)![1],
    pid: child.pid,
    async stop() {
      child.kill("SIGKILL");
      await child.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const residentKb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);

/**
 * CPU time the server process has used, in ms. On a shared machine wall-clock latency mostly
 * measures the neighbours; the CPU a round costs the server does not.
 */
function cpuMs(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // utime and stime, fields 14 and 15 of stat, in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function inBatches(count: number, size: number, task: (index: number) => Promise<unknown>) {
  for (let start = 0; start < count; start += size) await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, i) => task(start + i)));
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * One client per queue on its own keep-alive connection: long-polls, and on each answer notes
 * when its first bytes arrived and polls again. A raw socket rather than fetch: 1,000 fetch
 * clients in one process cost more CPU than the server does, and the figure would be theirs.
 */
async function startPoller(server: Server, owner: Person, queueId: string, onEvent: (arrivedAt: number) => void) {
  const { hostname, port } = new URL(server.url);
  const authorization = `Basic ${Buffer.from(`${owner.email}:${owner.apiKey}`).toString("base64")}`;
  const request = (lastEventId: number) =>
    `GET /api/v1/events?queue_id=${queueId}&last_event_id=${lastEventId} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${authorization}\r\n\r\n`;
  let buffer = "";
  let arrivedAt = 0;
  const socket = await Bun.connect({
    hostname,
    port: Number(port),
    socket: {
      data(sock, chunk) {
        if (buffer === "") arrivedAt = performance.now();
        buffer += chunk.toString();
        // Reading the answer waits until every connection's arrival has been noted, so one
        // client's work does not delay the next one's timestamp.
        setImmediate(() => {
          const headerEnd = buffer.indexOf("\r\n\r\n");
          const length = Number(/content-length: (\d+)/i.exec(buffer)?.[1] ?? NaN);
          if (headerEnd < 0 || Number.isNaN(length) || buffer.length < headerEnd + 4 + length) return;
          const body = JSON.parse(buffer.slice(headerEnd + 4, headerEnd + 4 + length)) as { events: Array<{ id: number; type: string }> };
          buffer = "";
          if (!body.events) throw new Error(`poll failed: ${JSON.stringify(body)}`);
          if (body.events.some((event) => event.type === "user_settings")) onEvent(arrivedAt);
          sock.write(request(body.events.at(-1)?.id ?? -1));
        });
      },
    },
  });
  socket.write(request(-1));
  return () => socket.end();
}

async function latencyBench() {
  const server = await startServer();
  const owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
  const queueIds: string[] = [];
  await inBatches(POLLERS, REGISTER_CONCURRENCY, async () => queueIds.push(ok(await owner.api.post("/register", { event_types: ["user_settings"], fetch_event_types: [] })).queue_id));

  let sentAt = 0;
  let received: number[] = [];
  let allReceived = () => {};
  const stops = await Promise.all(
    queueIds.map((queueId) =>
      startPoller(server, owner, queueId, (arrivedAt) => {
        received.push(arrivedAt - sentAt);
        if (received.length === POLLERS) allReceived();
      }),
    ),
  );
  const samples: number[] = [];
  const deliveryCpu: number[] = [];
  const repollCpu: number[] = [];
  let enterSends = false;
  // Each round starts with every poller parked: after their first poll, and after the re-polls
  // that follow a round, which cost an authentication each. Round 0 warms up and is not counted.
  await Bun.sleep(PARK_MS);
  for (let round = 0; round <= ROUNDS; round++) {
    received = [];
    const done = new Promise<void>((resolve, reject) => {
      allReceived = resolve;
      setTimeout(() => reject(new Error(`round ${round}: only ${received.length} of ${POLLERS} deliveries within 30 s`)), 30_000).unref();
    });
    const cpuBefore = cpuMs(server.pid);
    sentAt = performance.now();
    ok(await owner.api.patch("/settings", { enter_sends: (enterSends = !enterSends) }));
    await done;
    const cpuDelivering = cpuMs(server.pid) - cpuBefore;
    await Bun.sleep(PARK_MS);
    if (round > 0) {
      samples.push(...received);
      deliveryCpu.push(cpuDelivering);
      repollCpu.push(cpuMs(server.pid) - cpuBefore - cpuDelivering);
    }
  }
  stops.forEach((stop) => stop());
  await server.stop();
  samples.sort((a, b) => a - b);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return { samples: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), max: samples.at(-1)!, deliveryCpuMs: mean(deliveryCpu), repollCpuMs: mean(repollCpu) };
}

async function memoryBench() {
  const server = await startServer();
  const owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
  const register = () => owner.api.post("/register", {}).then(ok);
  // Warm up: code paths compiled and pools allocated before the baseline is taken.
  await inBatches(500, REGISTER_CONCURRENCY, async () => ok(await owner.api.delete("/events", { queue_id: (await register()).queue_id })));
  await Bun.sleep(2000);
  const before = residentKb(server.pid);
  await inBatches(IDLE_QUEUES, REGISTER_CONCURRENCY, register);
  await Bun.sleep(2000);
  const after = residentKb(server.pid);
  await server.stop();
  return { beforeMb: before / 1024, afterMb: after / 1024, perQueueKb: (after - before) / IDLE_QUEUES };
}

const latency = await latencyBench();
console.log(`${POLLERS} long-polling queues, ${ROUNDS} rounds of one event to all (${latency.samples} deliveries):`);
console.log(`  send-to-delivery latency p50 ${latency.p50.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms, max ${latency.max.toFixed(1)} ms (target p99 < 50 ms)`);
console.log(`  server CPU per round: ${latency.deliveryCpuMs.toFixed(0)} ms until all 1,000 delivered, ${latency.repollCpuMs.toFixed(0)} ms more taking the 1,000 re-polls`);
console.log(`  (machine load average ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]} on ${navigator.hardwareConcurrency} cores while measuring)`);
const memory = await memoryBench();
console.log(`${IDLE_QUEUES} idle queues (full register each):`);
console.log(`  server RSS ${memory.beforeMb.toFixed(1)} MB -> ${memory.afterMb.toFixed(1)} MB, ${memory.perQueueKb.toFixed(2)} KB per queue (target < 10 KB)`);
