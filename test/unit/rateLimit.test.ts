import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/http/errors";
import { addressKey, attemptWithin, FailureCounter, RecentSuccesses } from "../../src/http/rateLimit";

describe("addressKey", () => {
  test("keeps IPv4 addresses, and unwraps IPv4-mapped IPv6 ones", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::FFFF:203.0.113.7")).toBe("203.0.113.7");
  });

  test("groups IPv6 addresses by their /64, however they are written", () => {
    const home = "2001:db8:1:2::/64";
    expect(addressKey("2001:db8:1:2::1")).toBe(home);
    expect(addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe(home);
    expect(addressKey("2001:0DB8:0001:0002:0:0:0:ffff")).toBe(home);
    expect(addressKey("2001:db8:1:2::1%eth0")).toBe(home);
    expect(addressKey("2001:db8:1:3::1")).not.toBe(home);
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
  });

  test("leaves anything else as it is", () => {
    expect(addressKey("unknown")).toBe("unknown");
    expect(addressKey("1:2")).toBe("1:2");
  });
});

describe("RecentSuccesses", () => {
  test("remembers a key for its time to live, counted from the latest success", () => {
    const successes = new RecentSuccesses(1000);
    expect(successes.has("a", 0)).toBe(false);
    successes.record("a", 0);
    expect(successes.has("a", 999)).toBe(true);
    expect(successes.has("a", 1000)).toBe(false);
    successes.record("b", 0);
    successes.record("b", 800);
    expect(successes.has("b", 1500)).toBe(true);
  });

  test("holds at most maxKeys keys, dropping the longest unrenewed first", () => {
    const successes = new RecentSuccesses(1_000_000, 3);
    for (const key of ["a", "b", "c"]) successes.record(key, 0);
    successes.record("a", 1);
    successes.record("d", 2);
    expect(["a", "b", "c", "d"].filter((key) => successes.has(key, 3))).toEqual(["a", "c", "d"]);
  });
});

describe("FailureCounter", () => {
  test("refuses a key with `limit` failures in the window until the oldest of them ages out", () => {
    const counter = new FailureCounter(2, 1000);
    counter.recordFailure("k", 0);
    expect(counter.waitMs("k", 10)).toBe(0);
    counter.recordFailure("k", 100);
    expect(counter.waitMs("k", 100)).toBe(900);
    expect(counter.waitMs("other", 100)).toBe(0);
    expect(counter.waitMs("k", 999)).toBe(1);
    expect(counter.waitMs("k", 1000)).toBe(0);
    counter.forget("k");
    expect(counter.waitMs("k", 200)).toBe(0);
  });

  test("holds at most maxKeys keys, dropping aged-out and least-recently-failed ones", () => {
    const counter = new FailureCounter(1, 1000, 3);
    for (const key of ["a", "b", "c"]) counter.recordFailure(key, 0);
    counter.recordFailure("a", 500);
    counter.recordFailure("d", 600);
    expect(counter.size).toBe(3);
    expect(["a", "b", "c", "d"].filter((key) => counter.waitMs(key, 700) > 0)).toEqual(["a", "c", "d"]);
  });
});

describe("attemptWithin", () => {
  const refusedFor = async (attempt: Promise<unknown>) => {
    try {
      await attempt;
    } catch (error) {
      if (error instanceof ApiError && error.code === "RATE_LIMIT_HIT") return error.extra["retry-after"];
      throw error;
    }
    return undefined;
  };

  test("counts each failure under every check and refuses once any of them is full", async () => {
    const pairs = new FailureCounter(3, 60_000);
    const addresses = new FailureCounter(2, 60_000);
    const fails = async () => false;
    expect(await attemptWithin([{ counter: pairs, key: "p1" }, { counter: addresses, key: "x" }], fails)).toBe(false);
    expect(await attemptWithin([{ counter: pairs, key: "p2" }, { counter: addresses, key: "x" }], fails)).toBe(false);
    expect(await refusedFor(attemptWithin([{ counter: pairs, key: "p3" }, { counter: addresses, key: "x" }], fails))).toBe(60);
    // Without the full check the attempt runs.
    expect(await attemptWithin([{ counter: pairs, key: "p1" }], async () => true)).toBe(true);
  });

  test("lets a counter with limit 0 count nothing and refuse nothing", async () => {
    const off = new FailureCounter(0, 60_000);
    for (let i = 0; i < 5; i++) expect(await attemptWithin([{ counter: off, key: "k" }], async () => false)).toBe(false);
    expect(off.size).toBe(0);
  });

  test("runs no more attempts side by side than could fail within the limit", async () => {
    const counter = new FailureCounter(3, 60_000);
    let running = 0;
    let mostRunning = 0;
    let ran = 0;
    const slowFailure = async () => {
      ran++;
      mostRunning = Math.max(mostRunning, ++running);
      await Bun.sleep(5);
      running--;
      return false;
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => attemptWithin([{ counter: counter, key: "k" }], slowFailure)));
    expect(ran).toBe(3);
    expect(mostRunning).toBe(3);
    expect(outcomes.filter((outcome) => outcome.status === "rejected").length).toBe(9);
  });

  test("lets waiting attempts through when those under way succeed", async () => {
    const counter = new FailureCounter(1, 60_000);
    let ran = 0;
    const slowSuccess = async () => {
      ran++;
      await Bun.sleep(5);
      return true;
    };
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => attemptWithin([{ counter: counter, key: "k" }], slowSuccess)));
    expect(outcomes).toEqual([true, true, true, true, true]);
    expect(ran).toBe(5);
  });
});
