/**
 * A seeded random source (mulberry32), so that a failing crash run can be repeated with the
 * same choices of operations and the same kill delays by setting PARLEY_CRASH_SEED. The
 * interleaving of concurrent requests still varies from run to run.
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [low, high]. */
  between(low: number, high: number): number {
    return low + this.int(high - low + 1);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[this.int(items.length)];
  }
}

/** The seed from PARLEY_CRASH_SEED, or a fresh one. */
export function crashSeed(): number {
  const given = process.env.PARLEY_CRASH_SEED;
  if (given !== undefined && given !== "") {
    const seed = Number(given);
    if (!Number.isInteger(seed)) throw new Error(`PARLEY_CRASH_SEED must be an integer, got ${given}`);
    return seed >>> 0;
  }
  return Math.floor(Math.random() * 2 ** 32) >>> 0;
}
