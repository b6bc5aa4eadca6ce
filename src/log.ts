import type { LogLevel } from "./config";

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold = rank.info;

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

function emit(level: LogLevel, message: string) {
  if (rank[level] < threshold) return;
  const line = `${timestamp()} ${level.toUpperCase()} ${message}\n`;
  pending.push(line);
  pendingChars += line.length;
  if (rank[level] >= rank.warn || pendingChars >= FLUSH_AT_CHARS) flush();
  else scheduleFlush();
}

export const log = {
  setLevel(level: LogLevel) {
    threshold = rank[level];
  },
  debug: (message: string) => emit("debug", message),
  info: (message: string) => emit("info", message),
  warn: (message: string) => emit("warn", message),
  error: (message: string) => emit("error", message),
  flush,
};
