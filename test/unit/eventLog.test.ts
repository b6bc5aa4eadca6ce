import { expect, test } from "bun:test";
import { decodeBatch, encodeBatch } from "../../src/db/eventLog";
import type { Emitted } from "../../src/db/types";

test("a batch of events survives the event log's text: delivery options' Map and Set included", () => {
  const batch = [
    { event: { type: "message", message: { id: 5, content: "<p>hi</p>" }, flags: [] }, userIds: [1, 2], options: { flagsByUser: new Map([[1, ["read"]], [2, []]]), publicChannel: true, addressedElsewhere: new Set([3]), localEcho: { queueId: "a:q", localId: "7" } } },
    { event: { type: "typing", op: "start" }, userIds: [4] },
  ] as unknown as Emitted[];
  const again = decodeBatch(encodeBatch(batch));
  expect(again).toEqual(batch);
  expect(again[0].options!.flagsByUser).toBeInstanceOf(Map);
  expect(again[0].options!.addressedElsewhere).toBeInstanceOf(Set);
  expect(again[1].options).toBeUndefined();
});
