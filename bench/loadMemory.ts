/**
 * Memory after hostile load (npm run bench:memory-load): the resident memory of the compiled
 * binary idle, at its peak under a load, and once the load has stopped, on a database of
 * 1,000,000 messages. Target: settled within 1.3 times idle.
 *
 * Per binary, each on its own copy of the same database (historyData.ts builds it once;
 * --data-dir keeps it for later runs):
 *  1. `parley serve` on the copy, the people of test/helpers/seed.ts added and signed in;
 *  2. idle: VmRSS, RssAnon and RssFile at each --at time after the last of those requests;
 *  3. the load: the fuzz run of test/fuzz (every route as a member, then as a guest, with
 *     hostile values; --long sends all of them with 1 MB strings, which takes half an hour),
 *     then --flag-ops POST /messages/flags of --flag-ids random message IDs each, op add then
 *     remove in turn, flag starred, by a member created a minute before; peak: the process's
 *     VmHWM over the load (reset when it starts);
 *  4. settled: the same figures at each --at time after the last request of the load.
 * Then a table per binary, with settled / idle at each time.
 *
 *   bun bench/loadMemory.ts [--at 10,60,180] [--flag-ops 4] [--flag-ids 100000] [--long]
 *                           [--messages 1000000] [--data-dir DIR] [--binary PATH ...]
 *
 * Without --binary it builds one with `npm run build`'s script into a temp dir. Several
 * --binary options measure each in the same run (before/after a change): the servers wait
 * through their idle times together and each settles while the next is loaded, so the run
 * takes about twice the last --at time plus a load (1–2 min) per binary. The exit status is 1
 * when the last binary is not within the target at the last --at time.
 */
import { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { DATABASE_FILE } from "../src/db/client";
import { ok, type Org, type Person, seedPeople } from "../test/helpers/seed";
import { TestServer } from "../test/helpers/server";
import { fuzzRequests, prepareFuzzTargets, sendFuzz } from "../test/fuzz/fuzzRun";
import { buildHistory } from "./historyData";
import { buildParleyBinary, type ResidentMemory, resetPeakMemory, residentMemory } from "./lib";

const TARGET_RATIO = 1.3;

const { values: options } = parseArgs({
  options: {
    at: { type: "string", default: "10,60,180" },
    "flag-ops": { type: "string", default: "4" },
    "flag-ids": { type: "string", default: "100000" },
    long: { type: "boolean", default: false },
    messages: { type: "string", default: "1000000" },
    "data-dir": { type: "string" },
    binary: { type: "string", multiple: true },
  },
});
const CHECKPOINTS = options.at!.split(",").map(Number);
const FLAG_OPS = Number(options["flag-ops"]);
const FLAG_IDS = Number(options["flag-ids"]);
if (CHECKPOINTS.some((seconds) => !(seconds >= 0)) || !(FLAG_OPS >= 0) || !(FLAG_IDS > 0)) throw new Error("--at, --flag-ops and --flag-ids take positive numbers");

interface Run {
  label: string;
  server: TestServer;
  org: Org;
  idle: ResidentMemory[];
  peak?: number;
  settled: ResidentMemory[];
  load: string[];
  /** performance.now() when the last request of the setup was answered. */
  readyAt: number;
}

/** Memory at each checkpoint, counted from `since` (performance.now() of the last request). */
async function watch(pid: number, since: number): Promise<ResidentMemory[]> {
  const samples: ResidentMemory[] = [];
  for (const seconds of CHECKPOINTS) {
    await Bun.sleep(Math.max(0, since + seconds * 1000 - performance.now()));
    samples.push(residentMemory(pid));
  }
  return samples;
}

async function start(binary: string, database: string, label: string): Promise<Run> {
  const dataDir = mkdtempSync(join(scratch, "data-"));
  cpSync(database, dataDir, { recursive: true });
  const server = await TestServer.start({ binary, dataDir, init: false });
  const org = await seedPeople(server);
  return { label, server, org, idle: [], settled: [], load: [], readyAt: performance.now() };
}

/** A random pick of message IDs, the same for every binary. */
function messageIds(count: number, seed: number, maxId: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return 1 + Math.floor((state / 2 ** 32) * maxId);
  });
}

async function flagOperations(run: Run, flagger: Person, maxId: number) {
  for (let i = 0; i < FLAG_OPS; i++) {
    const op = i % 2 === 0 ? "add" : "remove";
    const began = performance.now();
    ok(await flagger.api.post("/messages/flags", { messages: messageIds(FLAG_IDS, i + 1, maxId), op, flag: "starred" }));
    run.load.push(`flags ${op} ${FLAG_IDS.toLocaleString("en")} IDs: ${((performance.now() - began) / 1000).toFixed(1)} s`);
  }
}

/** The load, with the peak of the process's memory over it; resolves when its last request is answered. */
async function load(run: Run, maxId: number) {
  const pid = run.server.pid!;
  resetPeakMemory(pid);
  const targets = await prepareFuzzTargets(run.org);
  for (const role of ["member", "guest"] as const) {
    const began = performance.now();
    let sent = 0;
    for (const { request } of fuzzRequests(targets, role, options.long!)) {
      await sendFuzz(run.server.url, run.org[role], request);
      sent++;
    }
    run.load.push(`fuzz as ${role}: ${sent.toLocaleString("en")} requests, ${((performance.now() - began) / 1000).toFixed(1)} s`);
  }
  // A member created a minute before, who has joined every channel, as in the finding.
  const channels = new Database(join(run.server.dataDir, DATABASE_FILE), { readonly: true });
  const names = channels.query<{ name: string }, []>("SELECT name FROM channels").all().map((row) => ({ name: row.name }));
  channels.close();
  ok(await run.org.member2.api.post("/users/me/subscriptions", { subscriptions: names }));
  await flagOperations(run, run.org.member2, maxId);
  run.peak = residentMemory(pid).peak;
}

const cell = (value: number) => value.toFixed(1).padStart(7);

function printRun(run: Run) {
  console.log(`\n${run.label}`);
  for (const line of run.load) console.log(`  ${line}`);
  console.log(`  ${"".padEnd(22)}${"VmRSS".padStart(7)}${"RssAnon".padStart(9)}${"RssFile".padStart(9)}   settled / idle`);
  for (const [index, seconds] of CHECKPOINTS.entries()) {
    const idle = run.idle[index];
    const settled = run.settled[index];
    const ratio = settled.rss / idle.rss;
    console.log(`  ${`idle, ${seconds} s`.padEnd(22)}${cell(idle.rss)}  ${cell(idle.anon)}  ${cell(idle.file)}`);
    console.log(`  ${`settled, ${seconds} s`.padEnd(22)}${cell(settled.rss)}  ${cell(settled.anon)}  ${cell(settled.file)}   ${ratio.toFixed(2)} (target <= ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? "met" : "NOT met"})`);
  }
  console.log(`  ${"peak over the load".padEnd(22)}${cell(run.peak!)}`);
}

const scratch = mkdtempSync(join(tmpdir(), "parley-load-memory-"));
const database = options["data-dir"] ?? join(scratch, "database");
const runs: Run[] = [];
try {
  await buildHistory(database, Number(options.messages));
  const maxId = (() => {
    const sqlite = new Database(join(database, DATABASE_FILE), { readonly: true });
    const row = sqlite.query<{ id: number }, []>("SELECT max(id) AS id FROM messages").get()!;
    sqlite.close();
    return row.id;
  })();
  const binaries = options.binary?.length ? options.binary : [buildParleyBinary(join(scratch, "parley"))];
  for (const binary of binaries) runs.push(await start(binary, database, options.binary?.length ? basename(binary) : "Parley"));
  // Idle processes do not change what another holds, so they wait together.
  await Promise.all(runs.map(async (run) => (run.idle = await watch(run.server.pid!, run.readyAt))));
  process.stderr.write(`idle figures taken; loading ${runs.length} server(s) one after the other\n`);
  const settling: Promise<void>[] = [];
  for (const run of runs) {
    await load(run, maxId);
    settling.push(watch(run.server.pid!, performance.now()).then((samples) => void (run.settled = samples)));
  }
  await Promise.all(settling);
  console.log(`\n${maxId.toLocaleString("en")} messages; MB; times after the last request`);
  for (const run of runs) printRun(run);
  const last = runs[runs.length - 1];
  process.exitCode = last.settled[last.settled.length - 1].rss / last.idle[last.idle.length - 1].rss <= TARGET_RATIO ? 0 : 1;
} finally {
  await Promise.all(runs.map((run) => run.server.stop("SIGKILL")));
  rmSync(scratch, { recursive: true, force: true });
}
