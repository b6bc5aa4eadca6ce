import { describe, expect, test } from "bun:test";
import { RateBucket } from "../../src/http/rateBucket";

/** One rate limit over many keys: a burst of `count`, then one unit every seconds / count. */

describe("RateBucket", () => {
  test("a quiet key spends the whole bucket at once, then waits a fraction of the window per unit", () => {
    const bucket = new RateBucket(4, 60);
    const t = 1_000_000;
    for (let i = 0; i < 4; i++) expect(bucket.spend("a", t)).toBe(0);
    expect(bucket.remaining("a", t)).toBe(0);
    expect(bucket.spend("a", t)).toBe(15_000);
    // Refused requests spend nothing: the wait does not grow by asking.
    expect(bucket.spend("a", t + 5_000)).toBe(10_000);
    expect(bucket.spend("a", t + 15_000)).toBe(0);
    expect(bucket.spend("a", t + 15_000)).toBe(15_000);
    expect(bucket.fullAt("a", t + 15_000)).toBe(t + 75_000);
  });

  test("what remains refills with time, and a full bucket is full again at once", () => {
    const bucket = new RateBucket(10, 10);
    const t = 5_000;
    for (let i = 0; i < 6; i++) bucket.spend(7, t);
    expect(bucket.remaining(7, t)).toBe(4);
    expect(bucket.remaining(7, t + 2_000)).toBe(6);
    expect(bucket.remaining(7, t + 60_000)).toBe(10);
    expect(bucket.fullAt(7, t + 60_000)).toBe(t + 60_000);
    expect(bucket.remaining(8, t)).toBe(10);
  });

  test("keys are limited apart", () => {
    const bucket = new RateBucket(1, 60);
    expect(bucket.spend(1, 0)).toBe(0);
    expect(bucket.spend(1, 0)).toBeGreaterThan(0);
    expect(bucket.spend(2, 0)).toBe(0);
    expect(bucket.spend("1", 0)).toBe(0);
  });

  test("costs in other units; one beyond the whole bucket fits an empty bucket and empties it", () => {
    const bucket = new RateBucket(10, 100);
    expect(bucket.spend("k", 0, 2.5)).toBe(0);
    expect(bucket.remaining("k", 0)).toBe(7);
    // 2.5 + 8 units of ten seconds each end 5 s beyond the window.
    expect(bucket.spend("k", 0, 8)).toBe(5_000);
    const big = new RateBucket(10, 100);
    expect(big.spend("k", 0, 1_000)).toBe(0);
    expect(big.remaining("k", 0)).toBe(0);
    expect(big.spend("k", 0, 1_000)).toBe(100_000);
  });

  test("a flood from many keys holds at most the bound, keeping the newest", () => {
    const bucket = new RateBucket(5, 60, 1_000);
    const t = 0;
    for (let i = 0; i < 300; i++) bucket.spend(`old-${i}`, t);
    // Later, those have refilled; the flood's keys have not.
    for (let i = 0; i < 100_000; i++) bucket.spend(`flood-${i}`, t + 120_000);
    expect(bucket.size).toBeLessThanOrEqual(1_000);
    expect(bucket.size).toBeGreaterThan(800);
    // The newest keys are kept: what they spent still counts.
    expect(bucket.remaining("flood-99999", t + 120_000)).toBe(4);
  });
});
