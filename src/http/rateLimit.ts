import { ApiError } from "./errors";

/**
 * Counts failures per key (an account, an address) in a sliding window and refuses a key that
 * has reached the limit until its oldest failure in the window has aged out. In memory: a
 * restart forgets the counts, which only gives an attacker one more window per restart.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    /** Bounds memory when someone sprays failures from many addresses or at many usernames. */
    private readonly maxKeys = 100_000,
  ) {}

  /** Throws RATE_LIMIT_HIT when any of the keys has used up its failures. A limit of 0 disables the check. */
  check(keys: string[], now = Date.now()) {
    if (this.limit <= 0) return;
    let waitMs = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.limit) waitMs = Math.max(waitMs, recent[recent.length - this.limit] + this.windowMs - now);
    }
    if (waitMs > 0) throw rateLimited(Math.ceil(waitMs / 1000));
  }

  recordFailure(keys: string[], now = Date.now()) {
    if (this.limit <= 0) return;
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

  forget(key: string) {
    this.failures.delete(key);
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
