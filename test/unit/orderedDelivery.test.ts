import { describe, expect, test } from "bun:test";
import type { LoggedBatch } from "../../src/db/eventLog";
import { OrderedDelivery } from "../../src/cluster/orderedDelivery";

/** cluster/orderedDelivery.ts: rows applied in ID order, each once, gaps filled from the log. */
const row = (id: number): LoggedBatch => ({ id, node: "a", invalidates: false, batch: "[]" });

function harness(log: number[] = [], gapWaitMs = 20) {
  const applied: number[][] = [];
  const fills: Array<[number, number | null]> = [];
  const delivery = new OrderedDelivery(0, {
    fill: async (after, before) => {
      fills.push([after, before]);
      return log.filter((id) => id > after && (before === null || id < before)).map(row);
    },
    apply: (rows) => void applied.push(rows.map((r) => r.id)),
    gapWaitMs,
    failed: (error) => {
      throw error;
    },
  });
  return { delivery, applied, fills };
}

describe("ordered delivery of the event log", () => {
  test("rows arriving out of order are applied in order, consecutive ones together, duplicates once", async () => {
    const { delivery, applied } = harness();
    delivery.offer(row(2));
    delivery.offer(row(3));
    delivery.offer(row(1));
    delivery.offer(row(2));
    await delivery.whenApplied(3);
    expect(applied.flat()).toEqual([1, 2, 3]);
    expect(applied).toEqual([[1, 2, 3]]);
    delivery.offer(row(1));
    delivery.offer(row(4));
    await delivery.whenApplied(4);
    expect(applied.flat()).toEqual([1, 2, 3, 4]);
    delivery.stop();
  });

  test("a gap that does not fill is read from the log; an ID the log lacks was rolled back and is passed over", async () => {
    const { delivery, applied, fills } = harness([1, 3, 5]);
    delivery.offer(row(5));
    await delivery.whenApplied(5);
    expect(applied.flat()).toEqual([1, 3, 5]);
    expect(fills[0]).toEqual([0, 5]);
    delivery.stop();
  });

  test("rows nobody published are found by the periodic look at the log's newest ID", async () => {
    const { delivery, applied } = harness([1, 2]);
    delivery.catchUpTo(2);
    await delivery.whenApplied(2);
    expect(applied.flat()).toEqual([1, 2]);
    delivery.stop();
  });
});
