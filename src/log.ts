import type { LogLevel } from "./config";

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold = rank.info;

// Request logging sits on the hot path; a buffered sink flushed on a short timer keeps a
// write(2) per request out of it.
const sink = Bun.stdout.writer();
let flushTimer: ReturnType<typeof setTimeout> | null = null;

function scheduleFlush() {
  if (flushTimer) return;
  flushTimer = setTimeout(() => {
    flushTimer = null;
    sink.flush();
  }, 20);
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

function emit(level: LogLevel, message: string) {
  if (rank[level] < threshold) return;
  sink.write(`${timestamp()} ${level.toUpperCase()} ${message}\n`);
  scheduleFlush();
}

export const log = {
  setLevel(level: LogLevel) {
    threshold = rank[level];
  },
  debug: (message: string) => emit("debug", message),
  info: (message: string) => emit("info", message),
  warn: (message: string) => emit("warn", message),
  error: (message: string) => emit("error", message),
  flush: () => sink.flush(),
};
