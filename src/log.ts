import type { LogLevel } from "./config";

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold = rank.info;

/**
 * "text": `2025-01-01T12:00:00.000Z INFO message`, for a person reading a terminal. "json"
 * (PARLEY_LOG_FORMAT=json): one object per line, `{"time":"...","level":"info","msg":"..."}`
 * with request lines carrying their parts as fields, for a log collector.
 */
export type LogFormat = "text" | "json";
let format: LogFormat = "text";

// Request logging sits on the hot path. Bun's stdout writer writes each line straight
// through (one write(2) per request, seen with strace), so lines are gathered here and
// written together on a short timer, or at once when many are waiting. Warnings and errors
// go out at once, so a crash right after one still leaves it in the log.
const sink = Bun.stdout.writer();
const FLUSH_AFTER_MS = 20;
const FLUSH_AT_CHARS = 64 * 1024;
let pending: string[] = [];
let pendingChars = 0;
let flushTimer: ReturnType<typeof setTimeout> | null = null;

function flush() {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  if (pending.length > 0) {
    sink.write(pending.join(""));
    pending = [];
    pendingChars = 0;
  }
  sink.flush();
}

// The timer does not keep the process alive, so what is still gathered when it ends goes out here.
process.on("exit", flush);

function scheduleFlush() {
  if (flushTimer) return;
  flushTimer = setTimeout(flush, FLUSH_AFTER_MS);
  flushTimer.unref?.();
}

// Formatting a date costs more than the rest of a log line; requests in the same millisecond
// share one.
let stampedAt = 0;
let stamp = "";
function timestamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}

export interface LoggedWarning {
  /** UNIX seconds. */
  time: number;
  level: "warn" | "error";
  message: string;
}

/**
 * The latest warnings and errors, for the admin console's server status (GET /server/status):
 * an operator can see what went wrong without shell access to the log. A ring of fixed size,
 * so a flood of warnings costs no memory. Kept whatever the log level, since the console is
 * not the log.
 */
const KEPT_WARNINGS = 100;
const warnings: LoggedWarning[] = [];
let nextWarning = 0;

function remember(level: "warn" | "error", message: string) {
  const entry = { time: Math.floor(Date.now() / 1000), level, message };
  if (warnings.length < KEPT_WARNINGS) warnings.push(entry);
  else warnings[nextWarning] = entry;
  nextWarning = (nextWarning + 1) % KEPT_WARNINGS;
}

/** The kept warnings and errors, newest first. */
export function recentWarnings(): LoggedWarning[] {
  const oldestFirst = warnings.length < KEPT_WARNINGS ? warnings : [...warnings.slice(nextWarning), ...warnings.slice(0, nextWarning)];
  return oldestFirst.toReversed();
}

export interface LineOptions {
  /**
   * false: the line is for the operator's terminal only and is not kept for the admin console,
   * for a secret such as the setup code, and the lines framing it.
   */
  remember?: boolean;
}

function emit(level: LogLevel, message: string, options?: LineOptions) {
  if ((level === "warn" || level === "error") && options?.remember !== false) remember(level, message);
  if (rank[level] < threshold) return;
  write(level, format === "json" ? `{"time":"${timestamp()}","level":"${level}","msg":${JSON.stringify(message)}}\n` : `${timestamp()} ${level.toUpperCase()} ${message}\n`);
}

function write(level: LogLevel, line: string) {
  pending.push(line);
  pendingChars += line.length;
  if (rank[level] >= rank.warn || pendingChars >= FLUSH_AT_CHARS) flush();
  else scheduleFlush();
}

/**
 * One answered request, at info level. The path is the URL's path alone: a query string may
 * carry what does not belong in a log. userId is null when the caller was not identified.
 */
function request(method: string, path: string, status: number, ms: number, userId: number | null) {
  if (rank.info < threshold) return;
  const duration = ms.toFixed(1);
  if (format === "text") return write("info", `${timestamp()} INFO ${method} ${path} ${status} ${duration}ms user=${userId ?? "-"}\n`);
  const line = `{"time":"${timestamp()}","level":"info","msg":${JSON.stringify(`${method} ${path} ${status}`)},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"duration_ms":${duration}${userId === null ? "" : `,"user_id":${userId}`}}\n`;
  write("info", line);
}

export const log = {
  setLevel(level: LogLevel) {
    threshold = rank[level];
  },
  setFormat(to: LogFormat) {
    format = to;
  },
  request,
  debug: (message: string) => emit("debug", message),
  info: (message: string) => emit("info", message),
  warn: (message: string, options?: LineOptions) => emit("warn", message, options),
  error: (message: string, options?: LineOptions) => emit("error", message, options),
  flush,
};
