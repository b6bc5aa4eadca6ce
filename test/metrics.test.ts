import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { DURATION_BUCKETS, Exposition, isLoopback, metricsAllowed } from "../src/http/metrics";
import { ApiClient } from "./helpers/client";
import { OWNER, login, ok, startInitializedServer, ORG_NAME, type Person } from "./helpers/seed";
import { parleyCommand, runParley, tempDataDir, type TestServer } from "./helpers/server";
import { directMessage, sendOk } from "./helpers/sending";

/**
 * GET /metrics (Prometheus text format 0.0.4) and JSON log lines (PARLEY_LOG_FORMAT=json),
 * against the real server.
 */

const TOKEN = "metrics-token-for-tests";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Scrape {
  samples: Sample[];
  types: Map<string, string>;
  /** The value of the one sample with this name and exactly these labels, or undefined. */
  get(name: string, labels?: Record<string, string>): number | undefined;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;

/** A small parser of the text format: every line is a comment (# HELP, # TYPE) or `name{labels} value`. */
function parseExposition(text: string): Scrape {
  expect(text.endsWith("\n")).toBe(true);
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const helped = new Set<string>();
  for (const line of text.slice(0, -1).split("\n")) {
    if (line.startsWith("#")) {
      const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
      if (!comment) throw new Error(`Not a HELP or TYPE line: ${line}`);
      if (comment[1] === "TYPE") {
        expect(["counter", "gauge", "histogram", "summary", "untyped"]).toContain(comment[3]);
        expect(types.has(comment[2])).toBe(false);
        types.set(comment[2], comment[3]);
      } else helped.add(comment[2]);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`Not a sample line: ${line}`);
    const [, name, labelText, valueText] = match;
    const labels: Record<string, string> = {};
    if (labelText) {
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < labelText.length) {
        const label = LABEL.exec(labelText);
        if (!label) throw new Error(`Malformed labels in: ${line}`);
        labels[label[1]] = label[2].replace(/\\(.)/g, (_, c) => (c === "n" ? "\n" : c));
      }
    }
    const value = valueText === "+Inf" ? Infinity : valueText === "-Inf" ? -Infinity : Number(valueText);
    if (Number.isNaN(value) && valueText !== "NaN") throw new Error(`Not a value: ${line}`);
    // Every sample belongs to a declared family (a histogram's by its _bucket, _sum, _count).
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, "");
    expect(types.has(family)).toBe(true);
    expect(helped.has(family)).toBe(true);
    samples.push({ name, labels, value });
  }
  const same = (a: Record<string, string>, b: Record<string, string>) => Object.keys(a).length === Object.keys(b).length && Object.entries(b).every(([k, v]) => a[k] === v);
  return {
    samples,
    types,
    get(name, labels = {}) {
      const found = samples.filter((sample) => sample.name === name && same(sample.labels, labels));
      expect(found.length).toBeLessThanOrEqual(1);
      return found[0]?.value;
    },
  };
}

let server: TestServer;
let owner: Person;

beforeAll(async () => {
  server = await startInitializedServer({ env: { PARLEY_METRICS_TOKEN: TOKEN } });
  owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
});
afterAll(() => server.dispose());

async function scrape(headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(`${server.url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
  return parseExposition(await response.text());
}

const requests = (scraped: Scrape, method: string, status: string) => scraped.get("parley_http_requests_total", { method, status }) ?? 0;

describe("GET /metrics", () => {
  test("answers every metric in the text format, with its type", async () => {
    // The event loop's histograms appear with its first sample, PARLEY_EVENT_LOOP_SAMPLE_MS
    // (100 by default) after the start, which a quick start and seed may not have reached.
    let scraped = await scrape();
    for (const deadline = Date.now() + 5_000; scraped.get("parley_event_loop_lag_seconds_count") === undefined && Date.now() < deadline; ) {
      await Bun.sleep(50);
      scraped = await scrape();
    }
    const expected: Record<string, string> = {
      parley_up: "gauge",
      parley_build_info: "gauge",
      parley_http_requests_total: "counter",
      parley_http_request_duration_seconds: "histogram",
      parley_event_loop_lag_seconds: "histogram",
      parley_event_loop_lag_cpu_seconds: "histogram",
      parley_event_queues: "gauge",
      parley_event_queue_polls: "gauge",
      parley_events_pending: "gauge",
      parley_events_pushed_total: "counter",
      parley_messages_sent_total: "counter",
      parley_outbox_pending: "gauge",
      parley_backup_last_success_timestamp_seconds: "gauge",
      parley_backup_last_failure_timestamp_seconds: "gauge",
      parley_data_disk_free_bytes: "gauge",
      parley_data_disk_size_bytes: "gauge",
      process_resident_memory_bytes: "gauge",
      process_start_time_seconds: "gauge",
    };
    expect(Object.fromEntries(scraped.types)).toEqual(expected);
    expect(scraped.get("parley_up")).toBe(1);
    // Sampled every PARLEY_EVENT_LOOP_SAMPLE_MS (100 by default) since the start.
    expect(scraped.get("parley_event_loop_lag_seconds_count")).toBeGreaterThan(0);
    expect(scraped.get("parley_event_loop_lag_cpu_seconds_count")).toBe(scraped.get("parley_event_loop_lag_seconds_count"));
    expect(scraped.get("parley_event_loop_lag_cpu_seconds_sum")).toBeLessThanOrEqual(scraped.get("parley_event_loop_lag_seconds_sum")!);
    const settings = ok(await new ApiClient(server.url).get("/server_settings"));
    expect(scraped.get("parley_build_info", { version: settings.zulip_version })).toBe(1);
    expect(scraped.get("process_resident_memory_bytes")).toBeGreaterThan(1_000_000);
    expect(scraped.get("parley_data_disk_size_bytes")).toBeGreaterThan(scraped.get("parley_data_disk_free_bytes")!);
    expect(scraped.get("parley_data_disk_free_bytes")).toBeGreaterThan(0);
    const started = scraped.get("process_start_time_seconds")!;
    expect(started).toBeLessThanOrEqual(Date.now() / 1000);
    expect(started).toBeGreaterThan(Date.now() / 1000 - 600);
  });

  test("request counters and the duration histogram move with requests", async () => {
    const anon = new ApiClient(server.url);
    const before = await scrape();
    ok(await anon.get("/server_settings"));
    ok(await anon.get("/server_settings"));
    expect((await fetch(`${server.url}/api/v1/no-such-endpoint`)).status).toBe(404);
    ok(await owner.api.post("/users/me/presence", { status: "active" }));
    const after = await scrape();
    // The scrape before is counted too, once answered.
    expect(requests(after, "GET", "2xx") - requests(before, "GET", "2xx")).toBe(3);
    expect(requests(after, "GET", "4xx") - requests(before, "GET", "4xx")).toBe(1);
    expect(requests(after, "POST", "2xx") - requests(before, "POST", "2xx")).toBe(1);

    for (const method of ["GET", "POST"]) {
      const buckets = after.samples.filter((sample) => sample.name === "parley_http_request_duration_seconds_bucket" && sample.labels.method === method);
      expect(buckets.map((sample) => sample.labels.le)).toEqual([...DURATION_BUCKETS.map(String), "+Inf"]);
      const counts = buckets.map((sample) => sample.value);
      expect(counts).toEqual(counts.toSorted((a, b) => a - b));
      const count = after.get("parley_http_request_duration_seconds_count", { method })!;
      expect(counts.at(-1)).toBe(count);
      expect(after.get("parley_http_request_duration_seconds_sum", { method })).toBeGreaterThan(0);
      // Every request of the method is timed (no long-poll ran here).
      const answered = after.samples.filter((sample) => sample.name === "parley_http_requests_total" && sample.labels.method === method).reduce((sum, sample) => sum + sample.value, 0);
      expect(count).toBe(answered);
    }
    // Status is a class, never a raw path: no label holds a path.
    for (const sample of after.samples) for (const value of Object.values(sample.labels)) expect(value).not.toContain("/");
  });

  test("a sent message moves the message and event counters; a register moves the queue gauge", async () => {
    const before = await scrape();
    const { queue_id } = ok(await owner.api.post("/register", { event_types: ["message"] }));
    const registered = await scrape();
    expect(registered.get("parley_event_queues")! - before.get("parley_event_queues")!).toBe(1);

    await sendOk(owner, directMessage([owner.id], "counted"));
    const sent = await scrape();
    expect(sent.get("parley_messages_sent_total")! - before.get("parley_messages_sent_total")!).toBe(1);
    expect(sent.get("parley_events_pushed_total")!).toBeGreaterThan(before.get("parley_events_pushed_total")!);
    expect(sent.get("parley_events_pending")!).toBeGreaterThanOrEqual(1);

    ok(await owner.api.delete("/events", { queue_id }));
    expect((await scrape()).get("parley_event_queues")).toBe(before.get("parley_event_queues")!);
  });

  test("an invitation waiting in the outbox (no mail server) shows in the outbox gauge, as in the server status", async () => {
    const before = (await scrape()).get("parley_outbox_pending")!;
    ok(await owner.api.post("/invites", { invitee_emails: "waiting@example.com", stream_ids: [], invite_expires_in_minutes: 60 }));
    const after = (await scrape()).get("parley_outbox_pending")!;
    expect(after).toBe(before + 1);
    expect(ok(await owner.api.get("/server/status")).outbox.pending).toBe(after);
  });

  test("through a proxy (X-Forwarded-For), only the right bearer token is answered; others get a plain 404", async () => {
    const unknown = await fetch(`${server.url}/no-such-page-at-all`);
    const notFound = { status: unknown.status, type: unknown.headers.get("content-type"), body: await unknown.text() };
    expect(notFound.status).toBe(404);
    const refusals: Record<string, string>[] = [
      { "x-forwarded-for": "203.0.113.9" },
      { forwarded: "for=203.0.113.9" },
      { "x-forwarded-for": "203.0.113.9", authorization: "Bearer wrong-token" },
      { "x-forwarded-for": "203.0.113.9", authorization: `Basic ${btoa(`x:${TOKEN}`)}` },
      { "x-forwarded-for": "203.0.113.9", authorization: `Bearer ${TOKEN}x` },
    ];
    for (const headers of refusals) {
      const refused = await fetch(`${server.url}/metrics`, { headers });
      expect({ status: refused.status, type: refused.headers.get("content-type"), body: await refused.text() }).toEqual(notFound);
    }
    const allowed = await scrape({ "x-forwarded-for": "203.0.113.9", authorization: `Bearer ${TOKEN}` });
    expect(allowed.get("parley_up")).toBe(1);
    // From this machine, no token is needed, and a wrong one does not matter.
    expect((await scrape({ authorization: "Bearer wrong-token" })).get("parley_up")).toBe(1);
  });
});

describe("who may read /metrics", () => {
  const request = (peer: string | null, authorization: string | null = null, forwarded = false) => ({ peer, authorization, forwarded });

  test("loopback peers always, unless they forward for someone else", () => {
    for (const peer of ["127.0.0.1", "127.10.0.3", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"]) {
      expect(isLoopback(peer)).toBe(true);
      expect(metricsAllowed(request(peer), null)).toBe(true);
      expect(metricsAllowed(request(peer), TOKEN)).toBe(true);
      expect(metricsAllowed(request(peer, null, true), TOKEN)).toBe(false);
      expect(metricsAllowed(request(peer, `Bearer ${TOKEN}`, true), TOKEN)).toBe(true);
    }
  });

  test("other peers only with the token, as a bearer token", () => {
    for (const peer of ["10.0.0.5", "192.168.1.2", "203.0.113.9", "::ffff:10.0.0.1", "fe80::1", "2001:db8::1", "128.0.0.1", "unknown", null]) {
      expect(isLoopback(peer ?? "")).toBe(false);
      expect(metricsAllowed(request(peer), null)).toBe(false);
      expect(metricsAllowed(request(peer), TOKEN)).toBe(false);
      expect(metricsAllowed(request(peer, `Bearer ${TOKEN}`), TOKEN)).toBe(true);
      expect(metricsAllowed(request(peer, `bearer   ${TOKEN}`), TOKEN)).toBe(true);
      expect(metricsAllowed(request(peer, `Bearer ${TOKEN}`), null)).toBe(false);
      expect(metricsAllowed(request(peer, "Bearer "), TOKEN)).toBe(false);
      expect(metricsAllowed(request(peer, `Bearer ${TOKEN.slice(0, -1)}`), TOKEN)).toBe(false);
      expect(metricsAllowed(request(peer, `Bearer ${TOKEN} extra`), TOKEN)).toBe(false);
      expect(metricsAllowed(request(peer, TOKEN), TOKEN)).toBe(false);
      expect(metricsAllowed(request(peer, `Basic ${TOKEN}`), TOKEN)).toBe(false);
    }
  });
});

describe("the exposition writer", () => {
  test("escapes label values and writes special values by name", () => {
    const text = new Exposition().metric("x_total", "counter", "Help with a \\ and\na newline.").sample("x_total", 3, { path: 'a"b\\c\nd' }).sample("x_total", Infinity, { k: "v" }).text();
    expect(text).toBe('# HELP x_total Help with a \\\\ and\\na newline.\n# TYPE x_total counter\nx_total{path="a\\"b\\\\c\\nd"} 3\nx_total{k="v"} +Inf\n');
    const parsed = parseExposition(text);
    expect(parsed.get("x_total", { path: 'a"b\\c\nd' })).toBe(3);
    expect(parsed.get("x_total", { k: "v" })).toBe(Infinity);
  });
});

describe("PARLEY_LOG_FORMAT=json", () => {
  test("every line is one JSON object; request lines carry method, path without the query, status, duration and user", async () => {
    const dataDir = tempDataDir();
    const init = runParley(["init", "--data-dir", dataDir, "--org-name", ORG_NAME, "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName]);
    expect(init.exitCode).toBe(0);
    const child = Bun.spawn([...parleyCommand(), "serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", "0"], {
      env: { ...process.env, PARLEY_LOG_LEVEL: "info", PARLEY_LOG_FORMAT: "json" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    let output = "";
    const reading = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of child.stdout) output += decoder.decode(chunk);
    })();
    const waitFor = async (pattern: RegExp) => {
      const deadline = Date.now() + 15_000;
      while (!pattern.test(output)) {
        if (Date.now() > deadline) throw new Error(`Never logged ${pattern}:\n${output}`);
        await Bun.sleep(20);
      }
      return pattern.exec(output)!;
    };
    try {
      const url = (await waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1];
      await waitFor(/to sign in/);
      const anon = new ApiClient(url);
      const person = await login(anon, OWNER.email, OWNER.password);
      ok(await person.api.get("/users/me", { api_key: "query-secret", client_gravatar: "true" }));
      ok(await anon.get("/server_settings"));
      await waitFor(/"path":"\/api\/v1\/server_settings"/);

      const lines = output.split("\n").filter(Boolean);
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const entry of entries) {
        expect(typeof entry.time).toBe("string");
        expect(new Date(entry.time as string).toISOString()).toBe(entry.time as string);
        expect(["debug", "info", "warn", "error"]).toContain(entry.level as string);
        expect(typeof entry.msg).toBe("string");
      }
      expect(entries.some((entry) => /^Parley .* listening on http:\/\/127\.0\.0\.1:\d+/.test(entry.msg as string))).toBe(true);

      const me = entries.find((entry) => entry.path === "/api/v1/users/me")!;
      expect(me).toMatchObject({ level: "info", method: "GET", path: "/api/v1/users/me", status: 200, user_id: person.id });
      expect(Object.keys(me).sort()).toEqual(["duration_ms", "level", "method", "msg", "path", "status", "time", "user_id"]);
      expect(typeof me.duration_ms).toBe("number");
      expect(me.duration_ms as number).toBeGreaterThanOrEqual(0);
      expect(output).not.toContain("query-secret");

      const anonymous = entries.find((entry) => entry.path === "/api/v1/server_settings")!;
      expect(anonymous).toMatchObject({ method: "GET", status: 200 });
      expect(anonymous).not.toHaveProperty("user_id");
    } finally {
      child.kill();
      await child.exited;
      await reading;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
