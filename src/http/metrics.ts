import { createHash, timingSafeEqual } from "node:crypto";
import { BlockList, isIP } from "node:net";

/**
 * What GET /metrics reports about the requests served, and the pieces of the Prometheus text
 * format (version 0.0.4) it is written in. No client library: the format is a few lines of text
 * per metric, and what is counted on every request must cost next to nothing. The request hook
 * (http/conventions.ts) calls recordRequest once per answered request; everything else the
 * endpoint reports is read when it is scraped (reads/metrics.ts).
 */

/** The histogram's upper bounds in seconds, Prometheus' usual ones. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

// Labels are bounded: a method outside this list counts as "other", a status by its class
// ("2xx"), so a scanner trying odd methods or paths cannot grow the series without end.
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"] as const;
const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;

interface MethodFigures {
  /** Requests by status class, index 0 for 1xx. */
  byStatus: number[];
  /** Timed requests per bucket (not cumulative: the last slot is above the highest bound). */
  buckets: number[];
  timed: number;
  seconds: number;
}

const figures = new Map<string, MethodFigures>(
  METHODS.map((method) => [method, { byStatus: STATUS_CLASSES.map(() => 0), buckets: [...DURATION_BUCKETS, Infinity].map(() => 0), timed: 0, seconds: 0 }]),
);
const otherMethod = figures.get("other")!;
let answered = 0;

/** Requests answered since the process started (jobs/memoryRelease.ts waits for none to come). */
export const requestsAnswered = () => answered;

/**
 * One answered request. timed: false leaves it out of the duration histogram (a long-poll
 * waits for events by design, and would hide the latency of everything else).
 */
export function recordRequest(method: string, status: number, seconds: number, timed: boolean) {
  answered++;
  const entry = figures.get(method) ?? otherMethod;
  const statusClass = Math.floor(status / 100) - 1;
  if (statusClass >= 0 && statusClass < STATUS_CLASSES.length) entry.byStatus[statusClass]++;
  if (!timed) return;
  let bucket = 0;
  while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket++;
  entry.buckets[bucket]++;
  entry.timed++;
  entry.seconds += seconds;
}

/** A metric's value in the text format: integers as they are, NaN and infinities by name. */
function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const escapeHelp = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

/** Builds an exposition: each metric's HELP and TYPE lines, then its samples. */
export class Exposition {
  private lines: string[] = [];

  metric(name: string, type: "counter" | "gauge" | "histogram", help: string) {
    this.lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`);
    return this;
  }

  sample(name: string, value: number, labels?: Record<string, string>) {
    const pairs = labels ? Object.entries(labels) : [];
    const labelText = pairs.length === 0 ? "" : `{${pairs.map(([key, label]) => `${key}="${escapeLabel(label)}"`).join(",")}}`;
    this.lines.push(`${name}${labelText} ${formatValue(value)}`);
    return this;
  }

  /** A metric with one sample and no labels. */
  single(name: string, type: "counter" | "gauge", help: string, value: number) {
    return this.metric(name, type, help).sample(name, value);
  }

  text(): string {
    return this.lines.join("\n") + "\n";
  }
}

/** The request counters and the duration histogram, added to an exposition. */
export function writeRequestMetrics(out: Exposition) {
  out.metric("parley_http_requests_total", "counter", "HTTP requests answered, by method and status class.");
  for (const [method, entry] of figures) {
    entry.byStatus.forEach((count, i) => {
      if (count > 0) out.sample("parley_http_requests_total", count, { method, status: STATUS_CLASSES[i] });
    });
  }
  out.metric("parley_http_request_duration_seconds", "histogram", "Time from receiving a request to answering it, by method; event long-polls are left out.");
  for (const [method, entry] of figures) {
    if (entry.timed === 0) continue;
    let cumulative = 0;
    DURATION_BUCKETS.forEach((bound, i) => {
      cumulative += entry.buckets[i];
      out.sample("parley_http_request_duration_seconds_bucket", cumulative, { method, le: String(bound) });
    });
    out.sample("parley_http_request_duration_seconds_bucket", entry.timed, { method, le: "+Inf" });
    out.sample("parley_http_request_duration_seconds_sum", entry.seconds, { method });
    out.sample("parley_http_request_duration_seconds_count", entry.timed, { method });
  }
}

/**
 * How late the event loop was, sampled by a timer (jobs/eventLoopLag.ts): everything the server
 * does runs on it, so a late tick is a time every request had to wait. Buckets in seconds.
 */
const LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
const histogram = () => ({ buckets: [...LAG_BUCKETS, Infinity].map(() => 0), count: 0, seconds: 0 });
const lag = histogram();
const lagOnCpu = histogram();

function observe(into: ReturnType<typeof histogram>, seconds: number) {
  let bucket = 0;
  while (bucket < LAG_BUCKETS.length && seconds > LAG_BUCKETS[bucket]) bucket++;
  into.buckets[bucket]++;
  into.count++;
  into.seconds += seconds;
}

/** One sample: how much later than due the monitor's timer ran, and how much of that the process spent on the CPU. */
export function recordEventLoopLag(seconds: number, onCpuSeconds: number) {
  observe(lag, seconds);
  observe(lagOnCpu, onCpuSeconds);
}

/** The event loop lag histograms, added to an exposition (nothing while the monitor is off). */
export function writeEventLoopMetrics(out: Exposition) {
  if (lag.count === 0) return;
  writeLagHistogram(out, "parley_event_loop_lag_seconds", "How late the event loop ran a timer due every PARLEY_EVENT_LOOP_SAMPLE_MS: time every request waited.", lag);
  writeLagHistogram(out, "parley_event_loop_lag_cpu_seconds", "Of each late tick of that timer, the part the process spent on the CPU: lateness from its own work rather than from waiting for a processor.", lagOnCpu);
}

function writeLagHistogram(out: Exposition, name: string, help: string, values: ReturnType<typeof histogram>) {
  out.metric(name, "histogram", help);
  let cumulative = 0;
  LAG_BUCKETS.forEach((bound, i) => {
    cumulative += values.buckets[i];
    out.sample(`${name}_bucket`, cumulative, { le: String(bound) });
  });
  out.sample(`${name}_bucket`, values.count, { le: "+Inf" });
  out.sample(`${name}_sum`, values.seconds);
  out.sample(`${name}_count`, values.count);
}

/** The content type of the text format. */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** 127.0.0.0/8 and ::1, however written (::ffff:127.0.0.1 included). */
export function isLoopback(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && loopback.check(address, family === 4 ? "ipv4" : "ipv6");
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Who may read /metrics: a caller on this machine (a loopback peer that did not come through a
 * proxy, which would say so in X-Forwarded-For or Forwarded), or anyone presenting
 * `Authorization: Bearer <PARLEY_METRICS_TOKEN>`. A proxy on the same machine is a loopback
 * peer for the whole internet, hence the forwarded headers count against it. The token is
 * compared in constant time (both sides hashed first, so its length does not show either).
 */
export function metricsAllowed(request: { peer: string | null; forwarded: boolean; authorization: string | null }, token: string | null): boolean {
  if (request.peer !== null && isLoopback(request.peer) && !request.forwarded) return true;
  if (!token || !request.authorization) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.authorization);
  if (!match) return false;
  return timingSafeEqual(digest(match[1]), digest(token));
}
