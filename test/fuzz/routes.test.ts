import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DATABASE_FILE } from "../../src/db/client";
import { createChannel, uniqueName } from "../helpers/channels";
import { type Org, type Person, ok, seedOrg } from "../helpers/seed";
import { hostileValues } from "./hostileValues";
import { type FuzzRequest, type Route, type Valid, casesFor, routeTable } from "./routeCases";

/**
 * Every route, as a member and as a guest, with malformed values for each parameter (see
 * hostileValues.ts and routeCases.ts). Each answer must come within a bound, must not be a
 * 5xx, must be the API's JSON error envelope when it refuses, and a refusal must commit
 * nothing. PARLEY_FUZZ_LONG=1 sends every value to every parameter, with 1 MB strings.
 */

const LONG = process.env.PARLEY_FUZZ_LONG === "1";
/** Far above what any of these takes on a quiet machine (a few ms); far below the seconds a regression costs. */
const ANSWER_BOUND_MS = Number(process.env.PARLEY_FUZZ_BOUND_MS ?? 2000);

let org: Org;
let commits: Database;
const ids: Record<string, Valid> = {};
const valid: Valid = {};

/** Grows whenever the server commits anything (SQLite's data_version, seen from our own read-only connection). */
const commitCount = () => (commits.query("PRAGMA data_version").get() as { data_version: number }).data_version;

/** A scheduled message's time that never comes during the run. */
const FAR_FUTURE = 4_000_000_000;

async function ownObjects(person: Person, channelId: number, messageId: number): Promise<Valid> {
  const draft = ok(await person.api.post("/drafts", { drafts: [{ type: "stream", to: [channelId], topic: "t", content: "draft", timestamp: 1 }] }));
  const snippet = ok(await person.api.post("/saved_snippets", { title: "s", content: "snippet" }));
  const scheduled = ok(await person.api.post("/scheduled_messages", { type: "stream", to: channelId, topic: "t", content: "later", scheduled_delivery_timestamp: FAR_FUTURE }));
  return {
    user_id: String(person.id),
    stream_id: String(channelId),
    message_id: String(messageId),
    draft_id: String(draft.ids[0]),
    saved_snippet_id: String(snippet.saved_snippet_id),
    scheduled_message_id: String(scheduled.scheduled_message_id),
  };
}

beforeAll(async () => {
  // Search-index merges stay inside the commits that need them: merged between requests, they
  // are commits of their own, which the check that a refusal changed nothing would count.
  org = await seedOrg({ env: { PARLEY_HEARTBEAT_SECONDS: "0.2", PARLEY_SEARCH_INDEX_MERGE_MS: "0" } });
  const channelName = uniqueName("fuzz");
  const channelId = await createChannel(org, org.owner, { principals: [org.owner.id, org.member.id, org.guest.id] }, channelName);
  const sent = ok(await org.member.api.post("/messages", { type: "stream", to: channelId, topic: "fuzz", content: "hello" }));
  const linkifier = ok(await org.admin.api.post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/{id}" }));
  const group = ok(await org.owner.api.post("/user_groups/create", { name: "fuzzers", description: "d", members: [org.member.id] }));
  const shared = { filter_id: String(linkifier.id), user_group_id: String(group.group_id), bot_id: String(org.bot.id) };
  ids.member = { ...shared, ...(await ownObjects(org.member, channelId, sent.id)) };
  ids.guest = { ...shared, ...(await ownObjects(org.guest, channelId, sent.id)) };
  Object.assign(valid, {
    type: "stream",
    to: String(channelId),
    topic: "fuzz",
    topic_name: "fuzz",
    content: "fuzz",
    stream_id: String(channelId),
    anchor: "newest",
    num_before: "1",
    num_after: "0",
    narrow: "[]",
    messages: `[${sent.id}]`,
    msg_ids: `[${sent.id}]`,
    op: "add",
    flag: "starred",
    emoji_name: "smile",
    subscriptions: `["${channelName}"]`,
    queue_id: "no-such-queue",
    name: "fuzz group",
    description: "d",
    members: `[${org.member.id}]`,
    title: "t",
    token: "fuzz-token",
    pattern: "#(?P<id>[0-9]+)",
    url_template: "https://example.com/{id}",
    full_name: "Fuzz",
    short_name: "fuzz",
    username: org.member.email,
    password: "wrong password",
    drafts: "[]",
    draft: '{"type":"","to":[],"topic":"","content":"x"}',
    subscription_data: "[]",
    ordered_linkifier_ids: "[]",
    scheduled_delivery_timestamp: String(FAR_FUTURE),
  });
  commits = new Database(join(org.server.dataDir, DATABASE_FILE), { readonly: true });
});

afterAll(async () => {
  commits?.close();
  await org?.server.dispose();
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
  ms: number;
}

async function send(person: Person | null, request: FuzzRequest): Promise<Answer> {
  const url = new URL(request.path, org.server.url);
  const headers: Record<string, string> = {};
  if (person) headers.authorization = `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}`;
  let body: string | undefined;
  if (request.raw) {
    body = request.raw.body;
    if (request.raw.contentType) headers["content-type"] = request.raw.contentType;
  } else if (request.method === "GET") {
    for (const [name, value] of request.fields) url.searchParams.append(name, value);
  } else {
    body = new URLSearchParams(request.fields).toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  const started = performance.now();
  const response = await fetch(url, { method: request.method, headers, body });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", text, ms: performance.now() - started };
}

/** What is wrong with an answer, or undefined. */
function problemWith(route: Route, answer: Answer, committed: boolean): string | undefined {
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

/** Deactivating oneself goes last, or every later request would be refused as unauthenticated. */
const ENDS_SESSION = (route: Route) => route.method === "DELETE" && route.path === "/api/v1/users/me";
const METHOD_ORDER = ["GET", "POST", "PATCH", "PUT", "DELETE"];
const ordered = (routes: Route[]) =>
  [...routes].sort((a, b) => Number(ENDS_SESSION(a)) - Number(ENDS_SESSION(b)) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));

async function fuzz(role: "member" | "guest") {
  const person = org[role];
  const values = hostileValues(LONG);
  const turn = { next: role === "guest" ? 1 : 0 };
  const problems: string[] = [];
  let sent = 0;
  let slowest = { ms: 0, label: "" };
  const routes = ordered(routeTable());
  for (const route of routes) {
    for (const request of casesFor(route, values, ids[role], valid, LONG, turn)) {
      const before = commitCount();
      let answer: Answer;
      try {
        answer = await send(person, request);
      } catch (error) {
        problems.push(`${route.method} ${route.path} [${request.label}]: no answer (${(error as Error).message})`);
        continue;
      }
      sent++;
      if (answer.ms > slowest.ms) slowest = { ms: answer.ms, label: `${route.method} ${route.path} [${request.label}]` };
      const problem = problemWith(route, answer, commitCount() !== before);
      if (problem) problems.push(`${route.method} ${route.path} [${request.label}]: ${problem}`);
    }
  }
  // Every route was reached: the table is the app's own, so this guards the harness itself.
  expect(routes.length).toBeGreaterThan(70);
  expect(sent).toBeGreaterThan(routes.length * 10);
  console.log(`fuzz as ${role}: ${sent} requests over ${routes.length} routes${LONG ? " (long run)" : ""}; slowest ${slowest.ms.toFixed(0)} ms: ${slowest.label}`);
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
      const answer = await send(null, { label: "anonymous", method: route.method, path, fields: [] });
      const problem = problemWith(route, answer, false);
      if (problem) problems.push(`${route.method} ${route.path}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });
});
