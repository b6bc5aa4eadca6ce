import { ApiError } from "./errors";

/**
 * Counts failures per key (an account, an address) in a sliding window and refuses a key that
 * has reached the limit until its oldest failure in the window has aged out. In memory: a
 * restart forgets the counts, which only gives an attacker one more window per restart.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();
  /** Attempts under way per key. */
  private readonly running = new Map<string, number>();
  /** Resolved when an attempt under way on the key ends; created when someone waits for that. */
  private readonly endings = new Map<string, { ended: Promise<void>; end: () => void }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    /** Bounds memory when someone sprays failures from many addresses or at many usernames. */
    private readonly maxKeys = 100_000,
  ) {}

  /**
   * Runs one attempt (say, a password check) unless one of its keys has used up its failures,
   * and records a failure when it answers false. A limit of 0 turns the protection off.
   *
   * Attempts run side by side while they could all fail without reaching the limit; beyond
   * that they wait for those under way to end and look again. So attempts fired all at once
   * gain no extra guesses, and honest ones arriving together are delayed, never refused.
   */
  async attempt(keys: string[], run: () => Promise<boolean>): Promise<boolean> {
    if (this.limit <= 0) return run();
    for (;;) {
      const now = Date.now();
      this.refuseExhausted(keys, now);
      const busy = keys.find((key) => this.recent(key, now).length + (this.running.get(key) ?? 0) >= this.limit);
      if (busy === undefined) break;
      await this.nextEnding(busy);
    }
    for (const key of keys) this.running.set(key, (this.running.get(key) ?? 0) + 1);
    try {
      const succeeded = await run();
      if (!succeeded) this.recordFailure(keys, Date.now());
      return succeeded;
    } finally {
      for (const key of keys) {
        const left = this.running.get(key)! - 1;
        if (left === 0) this.running.delete(key);
        else this.running.set(key, left);
        this.endings.get(key)?.end();
        this.endings.delete(key);
      }
    }
  }

  forget(key: string) {
    this.failures.delete(key);
  }

  private refuseExhausted(keys: string[], now: number) {
    let waitMs = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.limit) waitMs = Math.max(waitMs, recent[recent.length - this.limit] + this.windowMs - now);
    }
    if (waitMs > 0) throw rateLimited(Math.ceil(waitMs / 1000));
  }

  private nextEnding(key: string): Promise<void> {
    let ending = this.endings.get(key);
    if (!ending) {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      ending = { ended, end };
      this.endings.set(key, ending);
    }
    return ending.ended;
  }

  private recordFailure(keys: string[], now: number) {
    for (const key of keys) {
      const recent = this.recent(key, now);
      recent.push(now);
      // Only the newest `limit` failures can ever matter to check().
      if (recent.length > this.limit) recent.splice(0, recent.length - this.limit);
      this.failures.delete(key);
      this.failures.set(key, recent);
    }
    this.evict(now);
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

/** The reference's rate-limit error: 429, a Retry-After header, and `retry-after` in the body. */
export function rateLimited(retryAfterSeconds: number) {
  const seconds = Math.max(1, retryAfterSeconds);
  return new ApiError("RATE_LIMIT_HIT", "API usage exceeded rate limit", { "retry-after": seconds }, { headers: { "Retry-After": String(seconds) } });
}

type AddressSource = { requestIP(request: Request): { address: string } | null } | null;

/** The peer address of a request, the key its failures are counted under. */
export function clientAddress(server: AddressSource, request: Request): string {
  return server?.requestIP(request)?.address ?? "unknown";
}
