/**
 * The web chat client in Chromium (npm run bench:web): how fast it first shows a message list in
 * an organization of 10,000 messages, at full speed and with the CPU slowed 4×; how many bytes
 * that first load takes; how fast it switches narrows; and what 2,000 messages arriving while it
 * is open do to its heap and its DOM.
 *
 *   bun bench/webClient.ts [--messages 10000] [--runs 5] [--slow-runs 3] [--arrivals 2000]
 *
 * The organization is made through Parley's actions (8 people, 5 channels), the messages are
 * sent through the API (channels, topics, DMs and group DMs; the newest 200 unread for the
 * person who signs in, the owner). The page is driven only through the DOM contract the chat
 * keeps: message rows are `[data-message-id]` elements inside `[data-testid="message-list"]`,
 * sidebar channel links carry `[data-channel-id]`. Each run is a new browser context (cold
 * HTTP cache, the session cookie kept), so every first load downloads everything.
 *
 * Target (issue 16): the first message list in under 1 s on loopback, without slowing the CPU.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM, DESKTOP, signIn } from "../test/helpers/browser";
import { OWNER } from "../test/helpers/seed";
import { runParley } from "../test/helpers/server";
import { random } from "../test/helpers/largeOrg";
import { buildOrganization, startParley } from "./lib";

const TARGET_FIRST_LIST_MS = 1000;
const CHANNELS = ["general", "engineering", "design", "random", "support"];
const TOPICS = ["deploys", "standup", "questions", "release plan"];
const PEOPLE = 8;
const UNREAD = 200;
const SEND_CONCURRENCY = 16;

const ROWS = '[data-testid="message-list"] [data-message-id]';
const SELECTOR_TIMEOUT_MS = 20_000;

const { values: options } = parseArgs({
  options: {
    messages: { type: "string", default: "10000" },
    runs: { type: "string", default: "5" },
    "slow-runs": { type: "string", default: "3" },
    arrivals: { type: "string", default: "2000" },
  },
});

// ---- The organization ----

interface Sender {
  id: number;
  email: string;
  apiKey: string;
}

interface Organization {
  url: string;
  people: Sender[];
  channelIds: Map<string, number>;
  /** Message IDs per channel ID, to know when the list on screen is that channel's. */
  channelMessages: Map<number, Set<number>>;
}

const basic = (sender: Sender) => `Basic ${btoa(`${sender.email}:${sender.apiKey}`)}`;

async function api(url: string, sender: Sender, method: string, path: string, params: Record<string, string> = {}) {
  const target = new URL(`/api/v1${path}`, url);
  if (method === "GET") for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  const response = await fetch(target, { method, headers: { authorization: basic(sender) }, body: method === "GET" ? undefined : new URLSearchParams(params) });
  const body = (await response.json()) as Record<string, any>;
  if (response.status !== 200 || body.result !== "success") throw new Error(`${method} ${path} failed: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

const WORDS = "the deploy went out fine but the cache warmed slowly so we rolled the config back and will try again after lunch with a smaller batch".split(" ");

/** A message as chat has them: mostly a line or two, now and then with markdown. */
function content(next: () => number, index: number): string {
  const words = Array.from({ length: 4 + Math.floor(next() * 30) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ");
  const extra = index % 17 === 0 ? "\n\n```\nbun test --timeout 60000\n```" : index % 11 === 0 ? " See https://example.com/runbook for **details**." : "";
  return `${words[0].toUpperCase()}${words.slice(1)}.${extra}`;
}

interface Outgoing {
  sender: Sender;
  params: Record<string, string>;
  channelId?: number;
}

function outgoing(org: Organization, next: () => number, index: number): Outgoing {
  const sender = org.people[Math.floor(next() * org.people.length)];
  if (next() >= 0.1) return channelMessage(org, next, index, sender);
  // A DM with the owner (the person measured), or a group DM of three.
  const owner = org.people[0];
  const others = org.people.filter((person) => person !== sender && person !== owner);
  const other = others[Math.floor(next() * others.length)];
  const to = sender === owner ? [other.id] : next() < 0.7 ? [owner.id] : [owner.id, other.id];
  return { sender, params: { type: "direct", to: JSON.stringify(to), content: content(next, index) } };
}

/** To a channel, the busier ones more often, in one of a few topics. */
function channelMessage(org: Organization, next: () => number, index: number, sender: Sender): Outgoing {
  const channelId = org.channelIds.get(CHANNELS[Math.floor(next() * next() * CHANNELS.length)])!;
  return { sender, channelId, params: { type: "channel", to: String(channelId), topic: TOPICS[Math.floor(next() * TOPICS.length)], content: content(next, index) } };
}

/** Sends the messages, SEND_CONCURRENCY at a time; returns the IDs in the order given. */
async function sendAll(org: Organization, messages: Outgoing[]): Promise<number[]> {
  const ids: number[] = new Array(messages.length);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < messages.length) {
      const index = nextIndex++;
      const message = messages[index];
      const { id } = await api(org.url, message.sender, "POST", "/messages", message.params);
      ids[index] = id;
      if (message.channelId !== undefined) org.channelMessages.get(message.channelId)!.add(id);
    }
  };
  await Promise.all(Array.from({ length: SEND_CONCURRENCY }, worker));
  return ids;
}

async function seed(url: string, people: Sender[], count: number): Promise<Organization> {
  const owner = people[0];
  const streams = (await api(url, owner, "GET", "/streams")).streams as Array<{ stream_id: number; name: string }>;
  const channelIds = new Map(streams.map((stream) => [stream.name, stream.stream_id]));
  const org: Organization = { url, people, channelIds, channelMessages: new Map(streams.map((stream) => [stream.stream_id, new Set<number>()])) };
  const next = random(16);
  const messages = Array.from({ length: count }, (_, index) => outgoing(org, next, index));
  const started = performance.now();
  await sendAll(org, messages.slice(0, count - UNREAD));
  await api(url, owner, "POST", "/mark_all_as_read");
  await sendAll(org, messages.slice(count - UNREAD));
  const seconds = (performance.now() - started) / 1000;
  console.log(`Sent ${count.toLocaleString("en")} messages in ${seconds.toFixed(1)} s (${Math.round(count / seconds).toLocaleString("en")}/s); the newest ${UNREAD} unread for the owner, except their own.`);
  return org;
}

// ---- The browser ----

/**
 * Runs in the page before its scripts: notes, at the first animation frame that has a visible
 * message row, the time since navigation started (performance.now() counts from there).
 */
const FIRST_ROW_WATCH = `(() => {
  const tick = () => {
    const row = document.querySelector(${JSON.stringify(ROWS)});
    if (row && row.checkVisibility()) {
      window.__firstRowAt = performance.now();
      window.__firstRows = document.querySelectorAll(${JSON.stringify(ROWS)}).length;
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

async function freshPage(browser: Browser, session: StorageState): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ storageState: session, viewport: DESKTOP, reducedMotion: "reduce" });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) errors.push(message.text());
  });
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} from ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  await page.addInitScript(FIRST_ROW_WATCH);
  return { context, page, errors };
}

/** Fails with what the page shows and said, when the chat never shows what the bench waits for. */
async function explainTimeout(page: Page, errors: string[], waitedFor: string): Promise<never> {
  const shot = join(tmpdir(), `parley-bench-web-${Date.now()}.png`);
  await page.screenshot({ path: shot }).catch(() => undefined);
  const found = await page
    .evaluate((rows) => ({ lists: document.querySelectorAll('[data-testid="message-list"]').length, rows: document.querySelectorAll(rows).length, anyRows: document.querySelectorAll("[data-message-id]").length, channelLinks: document.querySelectorAll("[data-channel-id]").length }), ROWS)
    .catch(() => null);
  throw new Error(
    `The chat never showed ${waitedFor} within ${SELECTOR_TIMEOUT_MS / 1000} s.\n` +
      `The bench relies on the chat's DOM contract: message rows are [data-message-id] elements inside [data-testid="message-list"], and sidebar channel links carry [data-channel-id].\n` +
      `On the page: ${found ? `${found.lists} message list(s), ${found.rows} rows in them, ${found.anyRows} [data-message-id] elements anywhere, ${found.channelLinks} [data-channel-id] elements` : "(could not be read)"}.\n` +
      `Page errors: ${errors.length ? errors.join(" | ") : "none"}. Screenshot: ${shot}`,
  );
}

interface FirstLoadRun {
  firstRowMs: number;
  rows: number;
  domContentLoadedMs: number;
  /** Response bodies as sent (gzipped where the server compresses), by kind. */
  staticBytes: number;
  apiBytes: number;
  apiRequests: string[];
}

async function loadChat(page: Page, url: string, errors: string[], timeoutMs: number): Promise<FirstLoadRun> {
  let staticBytes = 0;
  let apiBytes = 0;
  const apiRequests: string[] = [];
  const counting: Promise<void>[] = [];
  page.on("requestfinished", (request) => {
    counting.push(
      request.sizes().then((sizes) => {
        const type = request.resourceType();
        if (type === "document" || type === "script" || type === "stylesheet") staticBytes += sizes.responseBodySize;
        else if (type === "fetch" || type === "xhr") {
          apiBytes += sizes.responseBodySize;
          apiRequests.push(`${request.method()} ${new URL(request.url()).pathname}`);
        }
      }),
    );
  });
  await page.goto(`${url}/`, { waitUntil: "commit" });
  try {
    await page.waitForFunction(() => (window as any).__firstRowAt !== undefined, undefined, { timeout: timeoutMs, polling: 50 });
  } catch {
    await explainTimeout(page, errors, `a visible message row (${ROWS}) after loading /`);
  }
  await Promise.all(counting);
  const figures = await page.evaluate(() => ({
    firstRowMs: (window as any).__firstRowAt as number,
    rows: (window as any).__firstRows as number,
    domContentLoadedMs: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).domContentLoadedEventEnd,
  }));
  return { ...figures, staticBytes, apiBytes, apiRequests };
}

/**
 * Runs `move` in the page and times, from just before it, the first animation frame at which
 * the list shows rows and every one of them is a message of `wanted` (the narrow moved to).
 */
async function timeNarrowChange(page: Page, errors: string[], move: "click" | "back", channelId: number, wanted: Set<number>): Promise<number> {
  try {
    return await page.evaluate(
      async ({ move, channelId, wanted, rows, timeoutMs }) => {
        const want = new Set(wanted);
        const start = performance.now();
        if (move === "back") history.back();
        else {
          const link = document.querySelector<HTMLElement>(`[data-channel-id="${channelId}"]`);
          if (!link) throw new Error(`no [data-channel-id="${channelId}"] link`);
          link.click();
        }
        for (;;) {
          const shown = [...document.querySelectorAll<HTMLElement>(rows)];
          if (shown.length > 0 && shown.every((row) => want.has(Number(row.dataset.messageId)))) return performance.now() - start;
          if (performance.now() - start > timeoutMs) throw new Error("timed out");
          await new Promise((resolve) => requestAnimationFrame(resolve));
        }
      },
      { move, channelId, wanted: [...wanted], rows: ROWS, timeoutMs: SELECTOR_TIMEOUT_MS },
    );
  } catch (error) {
    return explainTimeout(page, errors, `channel ${channelId}'s messages after ${move === "click" ? "clicking its [data-channel-id] link" : "going Back"} (${String(error).split("\n")[0]})`);
  }
}

// ---- Figures ----

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ms = (value: number) => `${Math.round(value)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const table: Array<[string, string, string, string]> = [];
function row(label: string, values: number[], format: (value: number) => string = ms) {
  table.push([label, String(values.length), format(median(values)), `${format(Math.min(...values))} – ${format(Math.max(...values))}`]);
}
function printTable() {
  const widths = [44, 6, 12, 24];
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("");
  console.log(`\n${line(["figure", "runs", "median", "range"])}`);
  for (const cells of table) console.log(line(cells));
}

// ---- The runs ----

async function firstLoads(browser: Browser, session: StorageState, url: string, runs: number, cpuSlowdown: number) {
  const results: FirstLoadRun[] = [];
  for (let run = 0; run < runs; run++) {
    const { context, page, errors } = await freshPage(browser, session);
    if (cpuSlowdown > 1) await (await context.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: cpuSlowdown });
    results.push(await loadChat(page, url, errors, SELECTOR_TIMEOUT_MS * cpuSlowdown));
    await context.close();
  }
  return results;
}

async function narrowSwitches(browser: Browser, session: StorageState, org: Organization, runs: number) {
  const [first, second] = [org.channelIds.get("engineering")!, org.channelIds.get("design")!];
  const times = { first: [] as number[], second: [] as number[], again: [] as number[], back: [] as number[] };
  for (let run = 0; run < runs; run++) {
    const { context, page, errors } = await freshPage(browser, session);
    await loadChat(page, org.url, errors, SELECTOR_TIMEOUT_MS);
    try {
      await page.waitForSelector(`[data-channel-id="${first}"]`, { timeout: SELECTOR_TIMEOUT_MS });
    } catch {
      await explainTimeout(page, errors, `a sidebar link [data-channel-id="${first}"]`);
    }
    times.first.push(await timeNarrowChange(page, errors, "click", first, org.channelMessages.get(first)!));
    times.second.push(await timeNarrowChange(page, errors, "click", second, org.channelMessages.get(second)!));
    times.again.push(await timeNarrowChange(page, errors, "click", first, org.channelMessages.get(first)!));
    times.back.push(await timeNarrowChange(page, errors, "back", second, org.channelMessages.get(second)!));
    await context.close();
  }
  row("channel, first visit (click)", times.first);
  row("another channel, first visit (click)", times.second);
  row("the first channel again (click, cached)", times.again);
  row("Back to the second channel (cached)", times.back);
}

/** Heap and DOM rows of the feed before and after `arrivals` messages from someone else. */
async function arrivals(browser: Browser, session: StorageState, org: Organization, count: number) {
  const { context, page, errors } = await freshPage(browser, session);
  await loadChat(page, org.url, errors, SELECTOR_TIMEOUT_MS);
  // Everything read first, so the feed opens at its newest end and follows it, as a reader's does.
  await page.evaluate(async () => {
    const csrf = document.cookie.match(/parley_csrf=([^;]+)/)?.[1] ?? "";
    await fetch("/api/v1/mark_all_as_read", { method: "POST", headers: { "x-csrf-token": csrf } });
  });
  await loadChat(page, org.url, errors, SELECTOR_TIMEOUT_MS);
  const cdp = await context.newCDPSession(page);
  const measure = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    return page.evaluate((rows) => ({ heap: (performance as any).memory.usedJSHeapSize as number, rows: document.querySelectorAll(rows).length }), ROWS);
  };
  await page.waitForTimeout(1000);
  const before = await measure();
  const next = random(2000);
  // From someone else, to a channel: every one belongs in the feed the page shows.
  const others = org.people.slice(1);
  const messages = Array.from({ length: count }, (_, index) => channelMessage(org, next, index, others[index % others.length]));
  const started = performance.now();
  const ids = await sendAll(org, messages);
  const sendSeconds = (performance.now() - started) / 1000;
  const newest = Math.max(...ids);
  // A list that follows the bottom shows the newest; one that shows "new messages" may not.
  const shownNewest = await page
    .waitForSelector(`[data-message-id="${newest}"]`, { timeout: 10_000, state: "attached" })
    .then(() => true)
    .catch(() => false);
  if (!shownNewest) await page.waitForTimeout(2000);
  const after = await measure();
  await context.close();
  console.log(`\n${count.toLocaleString("en")} messages from others sent in ${sendSeconds.toFixed(1)} s while the feed was open; the newest ${shownNewest ? "was" : "was NOT"} in the DOM within 10 s after.`);
  console.log(`JS heap (after a forced GC): ${mb(before.heap)} before, ${mb(after.heap)} after (${after.heap >= before.heap ? "+" : "−"}${mb(Math.abs(after.heap - before.heap))}).`);
  console.log(`Message rows in the DOM: ${before.rows} before, ${after.rows} after.`);
  if (errors.length) console.log(`Page errors: ${errors.join(" | ")}`);
}

// ---- Main ----

const dataDir = mkdtempSync(join(tmpdir(), "parley-bench-web-"));
let failed = false;
try {
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Bench", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName]);
  if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
  const accounts = await buildOrganization(dataDir, PEOPLE, CHANNELS);
  const people = accounts.map((account) => ({ id: account.id, email: account.email, apiKey: account.apiKey }));
  const parley = await startParley(dataDir, { logLevel: "warn" });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--headless=new", "--enable-precise-memory-info"] });
  try {
    const org = await seed(parley.url, people, Number(options.messages));

    // Signing in also bundles the pages (the server does it at the first page asked for).
    const signInContext = await browser.newContext({ viewport: DESKTOP });
    const signInPage = await signInContext.newPage();
    await signIn(signInPage, parley.url, OWNER.email, OWNER.password);
    const session = await signInContext.storageState();
    await signInContext.close();
    await firstLoads(browser, session, parley.url, 1, 1); // warm-up: the server's caches, Chromium's code cache is per context

    const fast = await firstLoads(browser, session, parley.url, Number(options.runs), 1);
    const slow = await firstLoads(browser, session, parley.url, Number(options["slow-runs"]), 4);
    console.log(`\nFirst load over the network (response bodies as sent): page + scripts + stylesheet ${kb(fast[0].staticBytes)}; API ${kb(fast[0].apiBytes)} (${fast[0].apiRequests.join(", ")})`);
    row("first message list shown", fast.map((run) => run.firstRowMs));
    row("  DOMContentLoaded", fast.map((run) => run.domContentLoadedMs));
    row("first message list shown, CPU 4× slower", slow.map((run) => run.firstRowMs));
    row("  DOMContentLoaded, CPU 4× slower", slow.map((run) => run.domContentLoadedMs));
    row("message rows in the first list", fast.map((run) => run.rows), String);
    row("first load: page, scripts, stylesheet", fast.map((run) => run.staticBytes), kb);
    await narrowSwitches(browser, session, org, Number(options.runs));
    printTable();

    const firstList = median(fast.map((run) => run.firstRowMs));
    failed = !(firstList < TARGET_FIRST_LIST_MS);
    console.log(`\nTarget: first message list in under ${TARGET_FIRST_LIST_MS} ms (median, CPU not slowed): ${failed ? "NOT met" : "met"}.`);

    await arrivals(browser, session, org, Number(options.arrivals));
  } finally {
    await browser.close();
    await parley.stop();
  }
} catch (error) {
  console.error(String(error instanceof Error ? error.message : error));
  // A page that would not bundle, or an API call that failed, is told in the server's log.
  const logged = existsSync(join(dataDir, "parley.log")) ? readFileSync(join(dataDir, "parley.log"), "utf8").split("\n") : [];
  const lastError = logged.findLastIndex((line) => /\bERROR\b/.test(line));
  if (lastError >= 0) console.error(`The server's last error:\n${logged.slice(lastError, lastError + 8).join("\n")}`);
  failed = true;
} finally {
  if (process.env.PARLEY_BENCH_KEEP) console.log(`kept ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
