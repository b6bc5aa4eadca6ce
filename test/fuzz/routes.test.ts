import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DATABASE_FILE } from "../../src/db/client";
import { type Org, seedOrg } from "../helpers/seed";
import { type FuzzAnswer, type FuzzRole, type FuzzTargets, fuzzRequests, prepareFuzzTargets, sendFuzz } from "./fuzzRun";
import { type Route, routeTable } from "./routeCases";

/**
 * Every route, as a member and as a guest, with malformed values for each parameter (see
 * hostileValues.ts and routeCases.ts). Each answer must come within a bound, must not be a
 * 5xx, must be the API's JSON error envelope when it refuses, and a refusal must commit
 * nothing. PARLEY_FUZZ_LONG=1 sends every value to every parameter, with 1 MB strings. The
 * requests themselves are made in fuzzRun.ts.
 */

const LONG = process.env.PARLEY_FUZZ_LONG === "1";
/** Far above what any of these takes on a quiet machine (a few ms); far below the seconds a regression costs. */
const ANSWER_BOUND_MS = Number(process.env.PARLEY_FUZZ_BOUND_MS ?? 2000);

let org: Org;
let commits: Database;
let targets: FuzzTargets;

/** Grows whenever the server commits anything (SQLite's data_version, seen from our own read-only connection). */
const commitCount = () => (commits.query("PRAGMA data_version").get() as { data_version: number }).data_version;

beforeAll(async () => {
  // Search-index merges stay inside the commits that need them: merged between requests, they
  // are commits of their own, which the check that a refusal changed nothing would count.
  org = await seedOrg({ env: { PARLEY_HEARTBEAT_SECONDS: "0.2", PARLEY_SEARCH_INDEX_MERGE_MS: "0" } });
  targets = await prepareFuzzTargets(org);
  commits = new Database(join(org.server.dataDir, DATABASE_FILE), { readonly: true });
});

afterAll(async () => {
  commits?.close();
  await org?.server.dispose();
});

/** What is wrong with an answer, or undefined. */
function problemWith(route: Route, answer: FuzzAnswer, committed: boolean): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 200)}`;
  if (answer.ms > ANSWER_BOUND_MS) return `took ${answer.ms.toFixed(0)} ms (bound ${ANSWER_BOUND_MS} ms)`;
  if (answer.status < 400) return undefined;
  if (committed) return `refused with ${answer.status} but changed the database`;
  // The browser pages answer refusals with a page, as a browser needs.
  if (!route.path.startsWith("/api/")) return undefined;
  if (!answer.contentType.startsWith("application/json")) return `refused with ${answer.status} and ${answer.contentType || "no content type"}: ${answer.text.slice(0, 100)}`;
  let body: { result?: unknown; msg?: unknown; code?: unknown };
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `refused with ${answer.status} and a body that is not JSON: ${answer.text.slice(0, 100)}`;
  }
  if (body.result !== "error" || typeof body.msg !== "string" || typeof body.code !== "string") return `refused with ${answer.status} outside the error envelope: ${answer.text.slice(0, 200)}`;
  // Whatever the input, the message stays short: it must not echo a huge value back.
  if (body.msg.length > 500) return `error message of ${body.msg.length} characters`;
}

async function fuzz(role: FuzzRole) {
  const person = org[role];
  const problems: string[] = [];
  const routes = new Set<Route>();
  let sent = 0;
  let slowest = { ms: 0, label: "" };
  for (const { route, request } of fuzzRequests(targets, role, LONG)) {
    routes.add(route);
    const before = commitCount();
    let answer: FuzzAnswer;
    try {
      answer = await sendFuzz(org.server.url, person, request);
    } catch (error) {
      problems.push(`${route.method} ${route.path} [${request.label}]: no answer (${(error as Error).message})`);
      continue;
    }
    sent++;
    if (answer.ms > slowest.ms) slowest = { ms: answer.ms, label: `${route.method} ${route.path} [${request.label}]` };
    const problem = problemWith(route, answer, commitCount() !== before);
    if (problem) problems.push(`${route.method} ${route.path} [${request.label}]: ${problem}`);
  }
  // Every route was reached: the table is the app's own, so this guards the harness itself.
  expect(routes.size).toBeGreaterThan(70);
  expect(sent).toBeGreaterThan(routes.size * 10);
  console.log(`fuzz as ${role}: ${sent} requests over ${routes.size} routes${LONG ? " (long run)" : ""}; slowest ${slowest.ms.toFixed(0)} ms: ${slowest.label}`);
  expect(problems).toEqual([]);
}

describe("every route survives malformed input", () => {
  test("as a member", () => fuzz("member"), LONG ? 1_800_000 : 240_000);
  test("as a guest", () => fuzz("guest"), LONG ? 1_800_000 : 240_000);

  test("without credentials, every API route refuses in the envelope", async () => {
    const problems: string[] = [];
    for (const route of routeTable()) {
      if (!route.path.startsWith("/api/")) continue;
      const path = route.path.replace(/:(\w+)/g, "1");
      const answer = await sendFuzz(org.server.url, null, { label: "anonymous", method: route.method, path, fields: [] });
      const problem = problemWith(route, answer, false);
      if (problem) problems.push(`${route.method} ${route.path}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });
});
