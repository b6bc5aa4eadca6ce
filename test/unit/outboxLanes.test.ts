import { describe, expect, test } from "bun:test";
import { Lanes } from "../../src/outbox/lanes";
import { type WaitingItem, WaitingItems } from "../../src/outbox/waitingItems";

/** The lanes' rule (outbox/lanes.ts) step by step with a clock given by the test, and which waiting items a lane may start (outbox/waitingItems.ts). */
describe("an outbox lane", () => {
  const pauses = (failures: number) => 60 * 2 ** (failures - 1);

  test("runs up to its limit while its destination answers, and other lanes beside it", () => {
    const lanes = new Lanes(pauses);
    for (let i = 0; i < 3; i++) {
      expect(lanes.mayStart("a", 3, 0)).toBe(true);
      lanes.started("a");
    }
    expect(lanes.mayStart("a", 3, 0)).toBe(false);
    expect(lanes.mayStart("b", 3, 0)).toBe(true);
    expect(lanes.finished("a", "answered", 0)).toBeNull();
    expect(lanes.mayStart("a", 3, 0)).toBe(true);
  });

  test("after one failure sends one item at a time at once; after two in a row pauses, doubling; a success ends it", () => {
    const lanes = new Lanes(pauses);
    lanes.started("a");
    lanes.started("a");
    expect(lanes.finished("a", "failed", 1000)).toBeNull();
    // One still under way: nothing more until it ends.
    expect(lanes.mayStart("a", 5, 1000)).toBe(false);
    expect(lanes.finished("a", "failed", 2000)).toBe(60);
    expect(lanes.mayStart("a", 5, 61_999)).toBe(false);
    expect(lanes.mayStart("a", 5, 62_000)).toBe(true);
    lanes.started("a");
    expect(lanes.mayStart("a", 5, 62_000)).toBe(false);
    expect(lanes.finished("a", "failed", 70_000)).toBe(120);
    expect(lanes.mayStart("a", 5, 189_999)).toBe(false);
    lanes.started("a");
    expect(lanes.finished("a", "answered", 190_000)).toBeNull();
    for (let i = 0; i < 5; i++) lanes.started("a");
    expect(lanes.mayStart("a", 5, 190_000)).toBe(false);
    expect(lanes.mayStart("a", 6, 190_000)).toBe(true);
  });

  test("an outcome that says nothing of the destination changes nothing", () => {
    const lanes = new Lanes(pauses);
    lanes.started("a");
    lanes.finished("a", "failed", 0);
    lanes.started("a");
    expect(lanes.finished("a", "unknown", 0)).toBeNull();
    // Still one at a time: the failure was not forgotten.
    lanes.started("a");
    expect(lanes.mayStart("a", 5, 0)).toBe(false);
  });

  test("a failing lane nothing waits for is forgotten once its pause is over", () => {
    const lanes = new Lanes(pauses);
    lanes.started("a");
    lanes.started("a");
    lanes.finished("a", "failed", 0);
    lanes.finished("a", "failed", 0);
    lanes.forgetIdle(new Set(), 1000);
    expect(lanes.mayStart("a", 5, 1000)).toBe(false);
    lanes.forgetIdle(new Set(["a"]), 60_000);
    expect(lanes.mayStart("a", 1, 60_000)).toBe(true);
    lanes.started("a");
    expect(lanes.mayStart("a", 5, 60_000)).toBe(false);
    lanes.finished("a", "unknown", 60_000);
    lanes.forgetIdle(new Set(), 60_000);
    for (let i = 0; i < 4; i++) lanes.started("a");
    expect(lanes.mayStart("a", 5, 60_000)).toBe(true);
  });
});

describe("the items waiting in a lane", () => {
  const item = (id: number, inOrder?: string, nextAttemptAt = 0): WaitingItem => ({ id, kind: "outgoing_webhook", route: { lane: "a", limit: 2, inOrder }, nextAttemptAt });

  test("offer the first due item of each order key, and no more unordered ones than there is room for, oldest first", () => {
    const waiting = new WaitingItems();
    for (const one of [item(1, "bot 1"), item(2, "bot 2"), item(3, "bot 1"), item(4), item(5), item(6)]) waiting.add(one);
    const ids = (underWay: number[] = [], notDue: number[] = []) =>
      waiting.startable("a", 2, (one) => !notDue.includes(one.id), (one) => underWay.includes(one.id)).map((one) => one.id);
    expect(ids()).toEqual([1, 2, 4, 5]);
    // Bot 1's first notification under way: its second waits; bot 2's goes.
    expect(ids([1, 4])).toEqual([2, 5, 6]);
    // Bot 1's first waiting for its retry does not hold up its second.
    expect(ids([], [1])).toEqual([2, 3, 4, 5]);
    expect([...waiting.lanes()]).toEqual([{ lane: "a", limit: 2 }]);
  });

  test("forget items as they finish, and a lane once it is empty", () => {
    const waiting = new WaitingItems();
    const first = item(1, "bot 1");
    const second = item(2);
    waiting.add(first);
    waiting.add(second);
    waiting.remove(first);
    expect(waiting.startable("a", 2, () => true, () => false).map((one) => one.id)).toEqual([2]);
    waiting.remove(second);
    expect([...waiting.lanes()]).toEqual([]);
  });
});
