import { ApiError } from "./errors";
import { shareUnder, told } from "./sharedLimits";

/**
 * Counts failures per key of one kind (say, client addresses) in a sliding window; a key that
 * has reached the limit is refused until its oldest failure in the window has aged out. In
 * memory: a restart forgets the counts, which only gives an attacker one more window per restart.
 */
export class FailureCounter {
  private readonly failures = new Map<string, number[]>();
  /** Attempts under way per key. */
  private readonly running = new Map<string, number>();
  /** Resolved when an attempt under way on the key ends; created when someone waits for that. */
  private readonly endings = new Map<string, { ended: Promise<void>; end: () => void }>();

  constructor(
    /** Failures allowed per key within the window; 0 turns this counter off. */
    readonly limit: number,
    readonly windowMs: number,
    /** Bounds memory when someone sprays failures from many addresses or at many usernames. */
    private readonly maxKeys = 100_000,
    /** Its name in a cluster, whose nodes share failures (http/sharedLimits.ts); none: not shared. */
    private readonly sharedAs?: string,
  ) {
    if (sharedAs) {
      shareUnder(sharedAs, {
        apply: (note) => {
          if (note.kind === "failed") this.count(note.key, Math.min(note.at, Date.now()));
          else if (note.kind === "forgot") this.failures.delete(note.key);
        },
      });
    }
  }

  get enabled() {
    return this.limit > 0;
  }

  /** Milliseconds until the key may try again, 0 when it may now. */
  waitMs(key: string, now: number): number {
    const recent = this.recent(key, now);
    return recent.length >= this.limit ? recent[recent.length - this.limit] + this.windowMs - now : 0;
  }

  /** Whether the attempts under way could use up the key's remaining failures. */
  busy(key: string, now: number): boolean {
    return this.recent(key, now).length + (this.running.get(key) ?? 0) >= this.limit;
  }

  started(key: string) {
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
  }

  ended(key: string) {
    const left = this.running.get(key)! - 1;
    if (left === 0) this.running.delete(key);
    else this.running.set(key, left);
    this.endings.get(key)?.end();
    this.endings.delete(key);
  }

  nextEnding(key: string): Promise<void> {
    let ending = this.endings.get(key);
    if (!ending) {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      ending = { ended, end };
      this.endings.set(key, ending);
    }
    return ending.ended;
  }

  recordFailure(key: string, now: number) {
    this.count(key, now);
    if (this.sharedAs) told({ kind: "failed", limit: this.sharedAs, key, at: now });
  }

  private count(key: string, now: number) {
    const recent = this.recent(key, now);
    recent.push(now);
    // Only the newest `limit` failures can ever matter to waitMs().
    if (recent.length > this.limit) recent.splice(0, recent.length - this.limit);
    this.failures.delete(key);
    this.failures.set(key, recent);
    this.evict(now);
  }

  forget(key: string) {
    this.failures.delete(key);
    if (this.sharedAs) told({ kind: "forgot", limit: this.sharedAs, key });
  }

  /** Keys holding failures, for tests of the memory bound. */
  get size() {
    return this.failures.size;
  }

  private recent(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const cutoff = now - this.windowMs;
    const first = times.findIndex((time) => time > cutoff);
    return first < 0 ? [] : first === 0 ? times : times.slice(first);
  }

  private evict(now: number) {
    if (this.failures.size <= this.maxKeys) return;
    for (const [key] of this.failures) {
      if (this.recent(key, now).length === 0) this.failures.delete(key);
    }
    // Map order is least-recently-failed first (recordFailure re-inserts), so drop from the front.
    for (const [key] of this.failures) {
      if (this.failures.size <= this.maxKeys) break;
      this.failures.delete(key);
    }
  }
}

/** One counter and the key an attempt is counted under in it. */
export interface FailureCheck {
  counter: FailureCounter;
  key: string;
}

/**
 * Runs one attempt (say, a password check) unless one of its checks has used up its failures
 * (then a 429), and records a failure under every check when it answers false.
 *
 * Attempts run side by side while they could all fail without reaching a limit; beyond that
 * they wait for those under way to end and look again. So attempts fired all at once gain no
 * extra guesses, and honest ones arriving together are delayed, never refused.
 */
export async function attemptWithin(checks: FailureCheck[], run: () => Promise<boolean>): Promise<boolean> {
  const active = checks.filter((check) => check.counter.enabled);
  for (;;) {
    const now = Date.now();
    const waitMs = Math.max(0, ...active.map(({ counter, key }) => counter.waitMs(key, now)));
    if (waitMs > 0) throw rateLimited(Math.ceil(waitMs / 1000));
    const busy = active.find(({ counter, key }) => counter.busy(key, now));
    if (busy === undefined) break;
    await busy.counter.nextEnding(busy.key);
  }
  for (const { counter, key } of active) counter.started(key);
  try {
    const succeeded = await run();
    if (!succeeded) {
      const now = Date.now();
      for (const { counter, key } of active) counter.recordFailure(key, now);
    }
    return succeeded;
  } finally {
    for (const { counter, key } of active) counter.ended(key);
  }
}

/**
 * The reference's rate-limit error: 429, a Retry-After header, and `retry-after` in the body
 * (whole seconds, at least 1); `headers` adds the X-RateLimit-* ones where a bucket applied.
 */
export function rateLimited(retryAfterSeconds: number, headers: Record<string, string> = {}) {
  const seconds = Math.max(1, retryAfterSeconds);
  return new ApiError("RATE_LIMIT_HIT", "API usage exceeded rate limit", { "retry-after": seconds }, { headers: { ...headers, "Retry-After": String(seconds) } });
}

/** The client address of a request, the key its failures are counted under (behind a trusted proxy, the address it forwards). */
export { clientAddress } from "./clientAddress";

/**
 * The key a client address is counted under: an IPv4 address as it is (IPv4-mapped IPv6 ones
 * too), an IPv6 address by its /64, since one subscriber is commonly given a whole /64 and
 * could otherwise take a fresh address for every guess.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(":")) return address;
  const [head, tail] = address.split("%")[0].split("::", 2);
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill("0"), ...tailGroups];
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group, 16));
  if (prefix.length < 4 || prefix.some((group) => !(group >= 0 && group <= 0xffff))) return address;
  return `${prefix.map((group) => group.toString(16)).join(":")}::/64`;
}

/**
 * Keys (an account at an address) that succeeded within the last `ttlMs`, newest last. In
 * memory and bounded: a restart or a flood of successes only costs a key its exemption,
 * which the next success gives back.
 */
export class RecentSuccesses {
  private readonly times = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxKeys = 100_000,
    /** Its name in a cluster, whose nodes share successes (http/sharedLimits.ts); none: not shared. */
    private readonly sharedAs?: string,
  ) {
    if (sharedAs) shareUnder(sharedAs, { apply: (note) => note.kind === "trusted" && this.keep(note.key, Math.min(note.at, Date.now())) });
  }

  record(key: string, now: number) {
    this.keep(key, now);
    if (this.sharedAs) told({ kind: "trusted", limit: this.sharedAs, key, at: now });
  }

  private keep(key: string, now: number) {
    this.times.delete(key);
    this.times.set(key, now);
    // Map order is oldest success first, so the front is what goes.
    for (const [oldest] of this.times) {
      if (this.times.size <= this.maxKeys) break;
      this.times.delete(oldest);
    }
  }

  has(key: string, now: number): boolean {
    const time = this.times.get(key);
    if (time === undefined) return false;
    if (now - time < this.ttlMs) return true;
    this.times.delete(key);
    return false;
  }
}
