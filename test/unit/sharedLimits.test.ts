import { afterEach, describe, expect, test } from "bun:test";
import { RateBucket } from "../../src/http/rateBucket";
import { FailureCounter, RecentSuccesses } from "../../src/http/rateLimit";
import { countedElsewhere, type LimitNote, tellLimitsTo } from "../../src/http/sharedLimits";

/** What a cluster's nodes tell each other of their limits (http/sharedLimits.ts), one node at a time. */
describe("limits shared across nodes", () => {
  afterEach(() => tellLimitsTo(null));

  test("a bucket tells what it spends, and counts what another node spent", () => {
    const told: LimitNote[] = [];
    tellLimitsTo((note) => told.push(note));
    const bucket = new RateBucket(3, 60, undefined, "test:bucket");
    expect(bucket.spend(7, Date.now())).toBe(0);
    expect(told).toMatchObject([{ kind: "spent", limit: "test:bucket", key: 7, cost: 1 }]);
    countedElsewhere({ kind: "spent", limit: "test:bucket", key: 7, cost: 2, at: Date.now() });
    expect(bucket.spend(7, Date.now())).toBeGreaterThan(0);
    // Another key, and an unnamed bucket, are untouched.
    expect(bucket.spend(8, Date.now())).toBe(0);
    const unnamed = new RateBucket(1, 60);
    told.length = 0;
    expect(unnamed.spend(7, Date.now())).toBe(0);
    expect(told).toEqual([]);
  });

  test("failures and forgetting travel; what arrives is not told on again", () => {
    const told: LimitNote[] = [];
    tellLimitsTo((note) => told.push(note));
    const counter = new FailureCounter(2, 60_000, undefined, "test:failures");
    countedElsewhere({ kind: "failed", limit: "test:failures", key: "k", at: Date.now() });
    countedElsewhere({ kind: "failed", limit: "test:failures", key: "k", at: Date.now() });
    expect(counter.waitMs("k", Date.now())).toBeGreaterThan(0);
    expect(told).toEqual([]);
    countedElsewhere({ kind: "forgot", limit: "test:failures", key: "k" });
    expect(counter.waitMs("k", Date.now())).toBe(0);
    counter.recordFailure("k", Date.now());
    expect(told).toMatchObject([{ kind: "failed", limit: "test:failures", key: "k" }]);
  });

  test("notes for a limit not made yet wait for it", () => {
    countedElsewhere({ kind: "trusted", limit: "test:later", key: "pair", at: Date.now() });
    const trusted = new RecentSuccesses(60_000, undefined, "test:later");
    expect(trusted.has("pair", Date.now())).toBe(true);
  });
});
