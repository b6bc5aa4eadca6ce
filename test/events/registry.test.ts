import { describe, expect, test } from "bun:test";
import { withIds } from "../../src/events/answer";
import { createQueue, fetchEvents, publish } from "../../src/events/registry";
import type { QueueSpec } from "../../src/events/spec";
import { queueSpec } from "./queueSpec";
import type { Emitted } from "../../src/db/types";
import type { AnyEvent } from "../../src/events/types";

/**
 * Routing inside the registry, in process, for what no action emits yet: message events with
 * per-user flags, all_public_streams queues and local echo.
 */

// A modern client: it takes the empty topic as "".
const spec = (overrides: Partial<QueueSpec> = {}) => queueSpec(overrides, ["empty_topic_name"]);

const message = (id: number, senderId = 1) =>
  ({
    type: "message",
    message: { id, type: "stream", display_recipient: "Denmark", stream_id: 3, subject: "castle", sender_id: senderId, sender_email: "a@example.com", content: "hi" },
  }) as unknown as AnyEvent;

const queued = async (queueId: string, userId: number) => withIds(await fetchEvents(queueId, userId, { dontBlock: true })) as Array<Record<string, any>>;

describe("publishing a message event", () => {
  test("reaches its recipients' queues with their own flags, and all_public_streams queues of others only for public channels", async () => {
    const recipient = createQueue(101, spec());
    const watcher = createQueue(102, spec({ allPublicStreams: true }));
    const bystander = createQueue(103, spec());
    const watchingRecipient = createQueue(101, spec({ allPublicStreams: true }));
    const publicMessage: Emitted = { event: message(1), userIds: [101], options: { publicChannel: true, flagsByUser: new Map([[101, ["mentioned"]]]) } };
    const privateMessage: Emitted = { event: message(2), userIds: [101] };
    await publish([publicMessage, privateMessage]);

    expect((await queued(recipient, 101)).map((event) => [event.message.id, event.flags])).toEqual([
      [1, ["mentioned"]],
      [2, []],
    ]);
    expect((await queued(watcher, 102)).map((event) => [event.message.id, event.flags])).toEqual([[1, []]]);
    expect(await queued(bystander, 103)).toEqual([]);
    // A recipient who also watches all public channels gets each message once.
    expect((await queued(watchingRecipient, 101)).map((event) => event.message.id)).toEqual([1, 2]);
  });

  test("local_id reaches only the sending client's queue", async () => {
    const sender = createQueue(201, spec());
    const otherTab = createQueue(201, spec());
    await publish([{ event: message(3, 201), userIds: [201], options: { localEcho: { queueId: sender, localId: "3.01" } } }]);
    expect((await queued(sender, 201))[0].local_id).toBe("3.01");
    expect("local_id" in (await queued(otherTab, 201))[0]).toBe(false);
  });

  test("a waiting long-poll gets everything one transaction published in one answer", async () => {
    const queueId = createQueue(301, spec());
    const waiting = fetchEvents(queueId, 301, { dontBlock: false, lastEventId: -1 });
    await publish([
      { event: message(4), userIds: [301] },
      { event: message(5), userIds: [301] },
    ]);
    const answer = withIds(await waiting) as Array<Record<string, any>>;
    expect(answer.map((event) => event.message.id)).toEqual([4, 5]);
    expect(answer[1].id).toBeGreaterThan(answer[0].id);
  });

  test("an event that fails to shape for one queue still reaches the others", async () => {
    // A message without a topic breaks the topic narrow of one queue, not the plain one.
    const broken = createQueue(401, spec({ narrow: [["topic", "castle"]] }));
    const fine = createQueue(401, spec());
    const topicless = { type: "message", message: { id: 6, type: "stream", display_recipient: "Denmark", sender_id: 1, sender_email: "a@example.com" } };
    await publish([{ event: topicless as unknown as AnyEvent, userIds: [401] }]);
    expect(await queued(broken, 401)).toEqual([]);
    expect(await queued(fine, 401)).toHaveLength(1);
  });
});
