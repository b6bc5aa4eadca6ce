import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { routeTable } from "../fuzz/routeCases";
import { type CaseList, casesOf, type ExpensiveCase, type RouteClass } from "./cases";
import { channelCases } from "./cases/channels";
import { messageCases } from "./cases/messages";
import { peopleCases } from "./cases/people";
import { serverCases } from "./cases/server";
import { buildStallOrg, type StallOrg } from "./organization";
import { sendCase } from "./send";
import { Watcher } from "./watcher";

/**
 * No request may hold the event loop for long (issue 24): every route's most expensive legal
 * input runs on a large organization while a second client, in a process of its own, asks
 * GET /users/me again and again; none of those may wait WAIT_BOUND_MS or more. The route list
 * is the app's own route table, so a route added without an entry in cases/ fails here.
 *
 * On a busy machine (CI runs two test files at once on two cores) a client can wait for
 * reasons that are nobody's doing here: its process, or the server's, not scheduled. So the
 * server says what it saw too: it samples how late its event loop runs, and how much of that
 * lateness it spent on the CPU (parley_event_loop_lag_cpu_seconds, here every 5 ms). A case
 * whose client waited too long is measured again only when the server never spent 50 ms of a
 * late tick on the CPU meanwhile, that is when the wait was the machine's and not the server's
 * work; a real stall is the server's own work every time, and fails.
 */

/**
 * CI runs two test files at once on two cores: the other file's server and client would take
 * turns on the processors with this one's and stretch every wait. Where it may (as root), the
 * test raises the priority of the server and of its watching client, so that the figures are
 * what a quiet machine would see; elsewhere it measures as it is, and says so.
 */
function measureAsOnAQuietMachine(pids: number[]) {
  // Linux keeps a priority per thread: every thread of both processes.
  const threads = pids.flatMap((pid) => readdirSync(`/proc/${pid}/task`));
  const raised = Bun.spawnSync(["renice", "-n", "-10", "-p", ...threads], { stdout: "pipe", stderr: "pipe" });
  if (raised.exitCode !== 0) console.error(`stall test: could not raise the priority of the server and its client (${raised.stderr.toString().trim()}); other work on this machine shows in the figures`);
}

const WAIT_BOUND_MS = 100;
const SERVER_LAG_BOUND_SECONDS = 0.05;
const ATTEMPTS = 5;
/** PARLEY_STALL_ONLY=<regex> runs only the cases whose route or input matches (while working on one). */
const ONLY = process.env.PARLEY_STALL_ONLY ? new RegExp(process.env.PARLEY_STALL_ONLY) : null;

/** People first: register needs the member's 150,000 unread messages, which the message cases read. */
const CASES: CaseList = { ...peopleCases, ...channelCases, ...messageCases, ...serverCases };

const routeKeys = () => routeTable().map((route) => `${route.method} ${route.path}`);

test("every route has an expensive case, or a reason it has none", () => {
  const keys = routeKeys();
  expect(keys.filter((key) => !(key in CASES))).toEqual([]);
  expect(Object.keys(CASES).filter((key) => !keys.includes(key))).toEqual([]);
});

interface Figure {
  key: string;
  entry: ExpensiveCase;
  ms: number;
  waitMs: number;
  /** The server's worst event-loop lateness, as the upper bound of its histogram bucket. */
  lagSeconds: number;
  /** The worst part of a late tick the server spent on the CPU, likewise. */
  cpuLagSeconds: number;
  attempts: number;
}

type Buckets = Map<number, number>;

/** The event-loop lag histograms' cumulative bucket counts, by upper bound (Infinity last): all of it, and the part on the CPU. */
async function lagBuckets(org: StallOrg): Promise<{ lag: Buckets; cpu: Buckets }> {
  const text = await (await fetch(`${org.server.url}/metrics`)).text();
  const histogram = (name: string) => {
    const buckets: Buckets = new Map();
    for (const match of text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\d+)$`, "gm"))) buckets.set(match[1] === "+Inf" ? Infinity : Number(match[1]), Number(match[2]));
    return buckets;
  };
  return { lag: histogram("parley_event_loop_lag_seconds"), cpu: histogram("parley_event_loop_lag_cpu_seconds") };
}

/** The smallest bound that holds every sample taken between the two readings (NaN: the server has no such figures). */
function worstLag(before: Map<number, number>, after: Map<number, number>): number {
  if (after.size === 0) return Number.NaN;
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  for (const [bound, count] of after) if (count - (before.get(bound) ?? 0) === total) return bound;
  return Infinity;
}

describe("on a large organization", () => {
  let org: StallOrg;
  let watcher: Watcher;

  beforeAll(async () => {
    // As an operator runs it: the renderer warmed up at start (the suite turns that off).
    org = await buildStallOrg({ env: { PARLEY_EVENT_LOOP_SAMPLE_MS: "5", PARLEY_RENDERER_WARM_UP: "1" } });
    watcher = new Watcher(org.server.url, org.watcher);
    measureAsOnAQuietMachine([org.server.pid!, watcher.pid]);
  }, 120_000);

  afterAll(async () => {
    await watcher?.stop();
    await org?.server.dispose();
  });

  async function measure(key: string, entry: ExpensiveCase): Promise<Omit<Figure, "attempts"> & { status: number; body: unknown }> {
    const [method, path] = key.split(" ");
    const lagBefore = await lagBuckets(org);
    await watcher.answeredSince(Watcher.clock());
    const started = Watcher.clock();
    let answer: { status: number; body: any };
    let rounds = 0;
    do answer = await sendCase(org, method, path, entry);
    while (entry.again?.(answer.body) && ++rounds < 1000);
    const ended = Watcher.clock();
    await watcher.answeredSince(ended);
    const lagAfter = await lagBuckets(org);
    const lagSeconds = worstLag(lagBefore.lag, lagAfter.lag);
    const cpuLagSeconds = worstLag(lagBefore.cpu, lagAfter.cpu);
    return { key, entry, ms: ended - started, waitMs: watcher.worstWait(started, ended), lagSeconds, cpuLagSeconds, status: answer.status, body: answer.body };
  }

  test(
    "no route's most expensive input keeps another client waiting 100 ms",
    async () => {
      const figures: Figure[] = [];
      const refusals: string[] = [];
      for (const [key, entry] of Object.entries(CASES)) {
        for (const expensive of casesOf(entry)) {
          if (ONLY && !ONLY.test(`${key} [${expensive.input}]`)) continue;
          let figure = await measure(key, expensive);
          let attempts = 1;
          while (figure.waitMs >= WAIT_BOUND_MS && figure.cpuLagSeconds <= SERVER_LAG_BOUND_SECONDS && attempts < ATTEMPTS) {
            figure = await measure(key, expensive);
            attempts++;
          }
          figures.push({ ...figure, attempts });
          const refused = figure.status !== (expensive.status ?? 200) ? ` ${JSON.stringify(figure.body).slice(0, 300)}` : "";
          const bound = (seconds: number) => (Number.isNaN(seconds) ? "unknown" : seconds === Infinity ? "> 10 s" : `≤ ${seconds * 1000} ms`);
          console.log(`${key} [${expensive.input}]: ${figure.status}, ${figure.ms.toFixed(0)} ms, worst wait ${figure.waitMs.toFixed(0)} ms, server lag ${bound(figure.lagSeconds)} (on the CPU ${bound(figure.cpuLagSeconds)})${attempts > 1 ? `, ${attempts} attempts` : ""}${refused}`);
          if (refused) refusals.push(`${key} [${expensive.input}]: ${figure.status}${refused}`);
        }
      }
      report(figures);
      const stalls = figures.filter((figure) => figure.waitMs >= WAIT_BOUND_MS).map((figure) => `${figure.key} [${figure.entry.input}]: ${figure.waitMs.toFixed(0)} ms`);
      expect(stalls).toEqual([]);
      // A case answered otherwise than it should measured something else than its input's cost.
      expect(refusals).toEqual([]);
    },
    600_000,
  );
});

function report(figures: Figure[]) {
  const worst = new Map<RouteClass, Figure>();
  for (const figure of figures) if ((worst.get(figure.entry.class)?.waitMs ?? -1) < figure.waitMs) worst.set(figure.entry.class, figure);
  console.log("worst concurrent wait per route class:");
  for (const [routeClass, figure] of [...worst].sort((a, b) => b[1].waitMs - a[1].waitMs)) {
    console.log(`  ${routeClass.padEnd(22)} ${figure.waitMs.toFixed(0).padStart(6)} ms  ${figure.key} [${figure.entry.input}]`);
  }
}
