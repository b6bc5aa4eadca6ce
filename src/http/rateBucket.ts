import { shareUnder, told } from "./sharedLimits";

/**
 * One rate limit over many keys (accounts, or client addresses): at most `count` units in any
 * `seconds`, as the reference's in-memory limiter (Zulip's Tornado backend) keeps it.
 *
 * Each key holds one number, the time at which all it has spent will have refilled. Spending
 * `cost` moves that time on by cost × seconds / count, and is refused when it would end up more
 * than the window ahead of now. So a quiet key may spend its whole `count` at once, and after
 * that one unit every seconds / count; a key refused now is free again in a fraction of the
 * window, not a whole one. One Map lookup and a little arithmetic per request.
 */
export class RateBucket {
  /** Per key, when everything it has spent will have refilled (ms). A time in the past means a full bucket. */
  private readonly refilledAt = new Map<number | string, number>();
  private readonly windowMs: number;
  private readonly msPerUnit: number;

  constructor(
    readonly count: number,
    seconds: number,
    /** Keys kept before the oldest are forgotten: a flood from many addresses must not grow memory without end. */
    private readonly maxKeys = 100_000,
    /** Its name in a cluster, whose nodes share what each spends (http/sharedLimits.ts); none: not shared. */
    private readonly sharedAs?: string,
  ) {
    this.windowMs = seconds * 1000;
    this.msPerUnit = this.windowMs / count;
    if (sharedAs) shareUnder(sharedAs, { apply: (note) => note.kind === "spent" && this.charge(note.key, Date.now(), note.cost) });
  }

  /** What another node spent for `key`: counted whether or not it fits (it was spent). */
  private charge(key: number | string, now: number, cost: number) {
    const refilled = this.refilledAt.get(key);
    this.refilledAt.set(key, Math.min(Math.max(refilled ?? now, now) + Math.min(cost, this.count) * this.msPerUnit, now + this.windowMs));
    if (refilled === undefined && this.refilledAt.size > this.maxKeys) this.forgetSome(now);
  }

  /**
   * Spends `cost` units for `key` at `now` (ms) and answers 0, or spends nothing and answers
   * the milliseconds until this cost would fit. A cost beyond the whole bucket counts as the
   * whole bucket, so it fits once the key has been quiet for a window.
   */
  spend(key: number | string, now: number, cost = 1): number {
    const refilled = this.refilledAt.get(key);
    const after = Math.max(refilled ?? now, now) + Math.min(cost, this.count) * this.msPerUnit;
    const over = after - now - this.windowMs;
    if (over > 0) return over;
    this.refilledAt.set(key, after);
    if (this.sharedAs) told({ kind: "spent", limit: this.sharedAs, key, cost, at: now });
    if (refilled === undefined && this.refilledAt.size > this.maxKeys) this.forgetSome(now);
    return 0;
  }

  /** Units `key` could spend at once at `now`. */
  remaining(key: number | string, now: number): number {
    const refilled = this.refilledAt.get(key);
    if (refilled === undefined || refilled <= now) return this.count;
    return Math.max(0, Math.floor((now + this.windowMs - refilled) / this.msPerUnit));
  }

  /** When `key`'s bucket will be full again (ms; `now` if it is). */
  fullAt(key: number | string, now: number): number {
    return Math.max(this.refilledAt.get(key) ?? now, now);
  }

  /** Keys held, for tests of the memory bound. */
  get size() {
    return this.refilledAt.size;
  }

  /**
   * Makes room: keys whose bucket is full again hold nothing worth keeping; if that is not a
   * tenth of the room, the longest-held keys go too (each is forgiven what it spent). Freeing
   * a tenth at a time keeps this a rare walk rather than one per new key.
   */
  private forgetSome(now: number) {
    for (const [key, refilled] of this.refilledAt) if (refilled <= now) this.refilledAt.delete(key);
    const keep = Math.floor(this.maxKeys * 0.9);
    for (const [key] of this.refilledAt) {
      if (this.refilledAt.size <= keep) break;
      this.refilledAt.delete(key);
    }
  }
}
