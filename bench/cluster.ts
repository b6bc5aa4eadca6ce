/**
 * A cluster on one machine (npm run bench:cluster): 1 node, then 3 nodes, of Parley on one
 * PostgreSQL and one NATS JetStream, each node a real `parley serve` process. People's event
 * queues are spread over the nodes (each user's lives on the node rendezvous hashing picks), each
 * long-polled by this process; senders post channel messages through every node in turn. It
 * prints, per cluster size:
 *  - cluster msg/s: messages acknowledged per second, all nodes together;
 *  - send→delivery p50/p99 across nodes: from just before a POST to one node until a queue
 *    living on another node hands the message to its long-poll (for 1 node: all deliveries),
 *    at a paced --rate (default 100 msg/s), and again under the full load;
 *  - CPU per message of every process involved: the Parley nodes, PostgreSQL (every process of
 *    the throwaway cluster's OS user), NATS, and their sum.
 *
 * On one machine the nodes share its cores, so throughput cannot grow as it would on three
 * machines; the figure that predicts scaling is the CPU per message (does coordination cost grow
 * with nodes?). PostgreSQL runs with fsync and synchronous_commit on, as in production.
 *
 * Long-polls go straight to the node holding their queue, as the nginx map of docs/OPERATIONS.md
 * routes them; --via-any-node sends each through the node it registered with instead, which
 * passes it on (the cost of a load balancer that does not route by queue).
 *
 *   bun bench/cluster.ts [--people 30] [--senders 32] [--seconds 10] [--warmup 5] [--nodes 1,3] [--rate 100] [--via-any-node]
 */
import { readdirSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SQL } from "bun";
import { ApiClient } from "../test/helpers/client";
import { startNats } from "../test/helpers/nats";
import { startPostgres } from "../test/helpers/postgres";
import { login, ok, OWNER, ORG_NAME, type Person } from "../test/helpers/seed";
import { runParley } from "../test/helpers/server";
import { cpuMs, type RunningParley, startParley } from "./lib";

const { values } = parseArgs({
  options: { rate: { type: "string", default: "100" }, "via-any-node": { type: "boolean", default: false }, people: { type: "string", default: "30" }, senders: { type: "string", default: "32" }, seconds: { type: "string", default: "10" }, warmup: { type: "string", default: "5" }, nodes: { type: "string", default: "1,3" } },
});
const PEOPLE = Number(values.people);
const SENDERS = Number(values.senders);
const SECONDS = Number(values.seconds);
const SIZES = values.nodes!.split(",").map(Number);
const VIA_ANY_NODE = values["via-any-node"]!;
const RATE = Number(values.rate);
const WARMUP_SECONDS = Number(values.warmup);

/** CPU ms of every process the OS user `uid` runs (PostgreSQL's server and backends). */
function cpuMsOfUser(uid: number): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid) total += cpuMs(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

const postgresUid = Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim() || -1);

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);

async function measure(size: number, postgresUrl: string, natsUrl: string, natsPid: number) {
  const database = `bench_${size}_${Date.now()}`;
  const admin = new SQL(postgresUrl);
  await admin.unsafe(`CREATE DATABASE ${database}`);
  await admin.close();
  const databaseUrl = postgresUrl.replace(/\/postgres$/, `/${database}`);
  const dirs: string[] = [];
  const dir = () => {
    const made = mkdtempSync(join(tmpdir(), "parley-bench-cluster-"));
    dirs.push(made);
    return made;
  };
  const init = runParley(["init", "--data-dir", dir(), "--org-name", ORG_NAME, "--email", OWNER.email, "--password", OWNER.password], { env: { PARLEY_DATABASE_URL: databaseUrl } });
  if (init.exitCode !== 0) throw new Error(init.stderr);
  const files = dir();
  const nodes: RunningParley[] = [];
  for (let i = 0; i < size; i++) {
    nodes.push(await startParley(dir(), { env: { PARLEY_DATABASE_URL: databaseUrl, PARLEY_BUS_URL: natsUrl, PARLEY_NODE_ID: `n${i}`, PARLEY_FILES_DIR: files } }));
  }
  try {
    const anon = new ApiClient(nodes[0].url);
    const owner = await login(anon, OWNER.email, OWNER.password);
    const people: Person[] = [];
    for (let i = 0; i < PEOPLE; i++) {
      const email = `p${i}@example.com`;
      ok(await owner.api.post("/users", { email, password: `password-${i}-x`, full_name: `Person ${i}` }));
      people.push(await login(anon, email, `password-${i}-x`));
    }
    ok(await owner.api.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "bench" }]), principals: JSON.stringify(people.map((p) => p.id)) }));
    const via = (person: Person, i: number) => new ApiClient(nodes[i % size].url).as(person.email, person.apiKey);

    // Each person's queue, registered through node i (it lands where it lives), long-polled.
    const latencies: number[] = [];
    const sentAt = new Map<string, { at: number; node: number }>();
    let polling = true;
    let answers = 0;
    const pollers = people.map(async (person, i) => {
      const queue = ok(await via(person, i).post("/register", { event_types: JSON.stringify(["message"]) }));
      const home = size === 1 ? 0 : Number(String(queue.queue_id).split(":")[0].slice(1));
      let last = queue.last_event_id as number;
      // Long-polls go to the node holding the queue, as the documented nginx map routes them
      // (any node would pass them on, at the cost of a hop: measured apart, --via-any-node).
      const poller = VIA_ANY_NODE ? via(person, i) : via(person, home);
      while (polling) {
        const answer = await poller.get("/events", { queue_id: queue.queue_id, last_event_id: last }).catch(() => null);
        if (!answer || answer.status !== 200) continue;
        answers++;
        const now = performance.now();
        for (const event of answer.body.events) {
          last = Math.max(last, event.id);
          if (event.type !== "message") continue;
          const sent = sentAt.get(event.message.content);
          if (sent && (size === 1 || sent.node !== home)) latencies.push(now - sent.at);
        }
      }
    });
    await Bun.sleep(500);

    // Full load, not measured: each node's code reaches the runtime's optimizing tiers (a node
    // that has handled a few hundred requests is still partly interpreted), as a node running
    // for days has. Three nodes each see a third of the requests, so without this they would be
    // measured colder than one.
    let counter = 0;
    let acknowledged = 0;
    const load = (seconds: number) => {
      const until = performance.now() + seconds * 1000;
      return Promise.all(
        [...Array(SENDERS).keys()].map(async (s) => {
          while (performance.now() < until) {
            const n = counter++;
            const node = n % size;
            const content = `bench ${n}`;
            sentAt.set(content, { at: performance.now(), node });
            const answer = await via(people[s % PEOPLE], node).post("/messages", { type: "stream", to: "bench", topic: `t${s % 8}`, content });
            if (answer.status === 200) acknowledged++;
          }
        }),
      );
    };
    if (WARMUP_SECONDS > 0) {
      await load(WARMUP_SECONDS);
      await Bun.sleep(1000);
      latencies.length = 0;
      acknowledged = 0;
    }

    // Latency first, at a rate well below what the machine can take (--rate), so that it shows
    // the cluster's own delay rather than a backlog of a saturated machine.
    const paced = async () => {
      const gapMs = 1000 / RATE;
      const end = performance.now() + Math.min(SECONDS, 5) * 1000;
      let n = 0;
      const sends: Promise<unknown>[] = [];
      for (let next = performance.now(); next < end; next += gapMs) {
        const wait = next - performance.now();
        if (wait > 0) await Bun.sleep(wait);
        const node = n % size;
        const content = `paced ${n++}`;
        sentAt.set(content, { at: performance.now(), node });
        sends.push(via(people[n % PEOPLE], node).post("/messages", { type: "stream", to: "bench", topic: "paced", content }));
      }
      await Promise.all(sends);
      await Bun.sleep(500);
    };
    await paced();
    latencies.sort((a, b) => a - b);
    const pacedLatency = { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
    latencies.length = 0;

    const answersBefore = answers;
    const cpuBefore = { parley: nodes.reduce((sum, node) => sum + cpuMs(node.pid), 0), postgres: cpuMsOfUser(postgresUid), nats: cpuMs(natsPid) };
    const started = performance.now();
    await load(SECONDS);
    const elapsed = (performance.now() - started) / 1000;
    // Deliveries of the last sends arrive a moment later; the CPU is read once they have.
    await Bun.sleep(1000);
    const cpu = {
      parley: nodes.reduce((sum, node) => sum + cpuMs(node.pid), 0) - cpuBefore.parley,
      postgres: cpuMsOfUser(postgresUid) - cpuBefore.postgres,
      nats: cpuMs(natsPid) - cpuBefore.nats,
    };
    polling = false;
    const perMessage = (ms: number) => `${Math.round((ms * 1000) / acknowledged)} µs`;
    latencies.sort((a, b) => a - b);
    void pollers;
    return {
      size,
      messagesPerSecond: acknowledged / elapsed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      pacedLatency,
      cpu: { parley: perMessage(cpu.parley), postgres: perMessage(cpu.postgres), nats: perMessage(cpu.nats), total: perMessage(cpu.parley + cpu.postgres + cpu.nats) },
      pollsPerMessage: (answers - answersBefore) / acknowledged,
      totalMicros: ((cpu.parley + cpu.postgres + cpu.nats) * 1000) / acknowledged,
    };
  } finally {
    for (const node of nodes) await node.stop();
    for (const made of dirs) rmSync(made, { recursive: true, force: true });
  }
}

const postgres = await startPostgres({ fsync: "on", synchronous_commit: "on", full_page_writes: "on", max_connections: "100" });
const nats = await startNats();
try {
  const natsPid = Number(Bun.spawnSync(["pgrep", "-f", `nats-server -a 127.0.0.1 -p ${new URL(nats.url).port}`]).stdout.toString().trim().split("\n")[0]);
  console.log(`${PEOPLE} people each with a queue, ${SENDERS} senders for ${SECONDS} s, one channel; PostgreSQL with fsync on; ${navigator.hardwareConcurrency} cores`);
  console.log(`Latency: ${RATE} msg/s for up to 5 s, send → delivery on another node; then throughput: as fast as the senders go, with its CPU per message (and latency under that load)`);
  console.log(`${"nodes".padEnd(7)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}  |${"msg/s".padStart(8)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"Parley".padStart(10)}${"Postgres".padStart(10)}${"NATS".padStart(9)}${"total/msg".padStart(11)}${"polls".padStart(8)}`);
  const results = [];
  for (const size of SIZES) {
    const result = await measure(size, postgres.url, nats.url, natsPid);
    results.push(result);
    console.log(
      `${String(result.size).padEnd(7)}${result.pacedLatency.p50.toFixed(1).padStart(8)}${result.pacedLatency.p99.toFixed(1).padStart(8)}  |${Math.round(result.messagesPerSecond).toLocaleString("en").padStart(8)}${result.p50.toFixed(1).padStart(9)}${result.p99.toFixed(1).padStart(9)}${result.cpu.parley.padStart(10)}${result.cpu.postgres.padStart(10)}${result.cpu.nats.padStart(9)}${result.cpu.total.padStart(11)}${result.pollsPerMessage.toFixed(1).padStart(8)}`,
    );
  }
  if (results.length > 1) console.log(`CPU per message, ${results.at(-1)!.size} nodes / 1 node: ${(results.at(-1)!.totalMicros / results[0].totalMicros).toFixed(2)}`);
} finally {
  await nats.stop();
  await postgres.stop();
}
