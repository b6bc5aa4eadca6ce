import { describe, expect, test } from "bun:test";
import { eventsAnswer, withIds } from "../../src/events/answer";
import type { StoredEvent } from "../../src/events/queue";

const stored = (id: number, event: object) => ({ id, event }) as StoredEvent;

/** The answer for a client that does not accept gzip: always JSON text. */
function eventsAnswerJson(events: StoredEvent[], extra: Record<string, unknown>): string {
  const answer = eventsAnswer(events, extra, false);
  if (typeof answer !== "string") throw new Error("an answer to a client without gzip must be JSON text");
  return answer;
}

describe("GET /events answer JSON", () => {
  test("is the success envelope with each event and its ID, then the extra fields", () => {
    const events = [stored(3, { type: "heartbeat" }), stored(4, { type: "typing", op: "start", sender: { user_id: 7 } })];
    expect(JSON.parse(eventsAnswerJson(events, { queue_id: "q1" }))).toEqual({ result: "success", msg: "", events: withIds(events), queue_id: "q1" });
    expect(withIds(events)[1] as object).toEqual({ type: "typing", op: "start", sender: { user_id: 7 }, id: 4 });
  });

  test("an event shared by several queues gets each queue's own ID, and its text reflects it as it was shared", () => {
    const shared = { type: "message", message: { id: 10, content: 'quote " and \u2028 and <b>' }, flags: [] };
    const first = JSON.parse(eventsAnswerJson([stored(0, shared)], { queue_id: "a" }));
    const second = JSON.parse(eventsAnswerJson([stored(41, shared), stored(42, { type: "heartbeat" })], { queue_id: "b" }));
    expect(first.events).toEqual([{ ...shared, id: 0 }]);
    expect(second.events).toEqual([{ ...shared, id: 41 }, { type: "heartbeat", id: 42 }]);
  });

  test("no events, and extra fields of any JSON type", () => {
    expect(JSON.parse(eventsAnswerJson([], { queue_id: "q", ignored_parameters_unsupported: ["x", "y"] }))).toEqual({ result: "success", msg: "", events: [], queue_id: "q", ignored_parameters_unsupported: ["x", "y"] });
    expect(JSON.parse(eventsAnswerJson([], {}))).toEqual({ result: "success", msg: "", events: [] });
  });

  test("the queue's ID wins over an `id` an event might carry", () => {
    expect(JSON.parse(eventsAnswerJson([stored(5, { type: "odd", id: 99 })], {})).events).toEqual([{ type: "odd", id: 5 }]);
  });
});
