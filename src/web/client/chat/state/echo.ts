import { signal } from "@preact/signals";
import { api } from "../../ui/api";
import type { Narrow } from "../model/narrow";
import { currentQueueId } from "./connection";
import { messages } from "./messages";

/**
 * Local echo: a message shows the moment it is sent, as plain text marked as sending, and is
 * settled by whichever comes first, the HTTP reply (its id) or its own event (the server's
 * rendering, matched by local_id). A failed send stays, marked, with Retry; nothing is ever
 * re-sent without the person's click, so a message cannot go out twice.
 */

export type Destination = { type: "stream"; channelId: number; topic: string } | { type: "private"; userIds: number[] };

export interface PendingMessage {
  localId: string;
  destination: Destination;
  /** The conversation it goes to, for the lists that show it. */
  conversation: Narrow;
  content: string;
  timestamp: number;
  state: "sending" | "sent" | "failed";
  id?: number;
  error?: string;
}

export const pending = signal<PendingMessage[]>([]);

let counter = 0;
/** Unique within this tab: the server hands it back on our own queue's copy of the message. */
const nextLocalId = () => `${Date.now().toString(36)}.${(++counter).toString(36)}`;

function update(localId: string, change: Partial<PendingMessage>) {
  pending.value = pending.value.map((message) => (message.localId === localId ? { ...message, ...change } : message));
}

const drop = (test: (message: PendingMessage) => boolean) => {
  if (pending.value.some(test)) pending.value = pending.value.filter((message) => !test(message));
};

async function post(message: PendingMessage) {
  const { destination } = message;
  const queueId = currentQueueId();
  try {
    const reply = await api<{ id: number }>("POST", "/messages", {
      type: destination.type === "stream" ? "stream" : "direct",
      to: destination.type === "stream" ? destination.channelId : destination.userIds,
      topic: destination.type === "stream" ? destination.topic : undefined,
      content: message.content,
      queue_id: queueId || undefined,
      local_id: message.localId,
      read_by_sender: true,
    });
    // Its event may have come first and settled it already.
    if (messages.has(reply.id)) drop((other) => other.localId === message.localId);
    else update(message.localId, { state: "sent", id: reply.id });
  } catch (error) {
    update(message.localId, { state: "failed", error: (error as Error).message });
  }
}

export function send(destination: Destination, conversation: Narrow, content: string) {
  const message: PendingMessage = { localId: nextLocalId(), destination, conversation, content, timestamp: Math.floor(Date.now() / 1000), state: "sending" };
  pending.value = [...pending.value, message];
  void post(message);
}

export function retry(localId: string) {
  const message = pending.value.find((other) => other.localId === localId);
  if (!message || message.state !== "failed") return;
  update(localId, { state: "sending", error: undefined });
  void post({ ...message, state: "sending" });
}

export const discard = (localId: string) => drop((message) => message.localId === localId);

/** Our own message arrived as an event, or is in a fetched list: its echo is settled. */
export function settle(id: number, localId?: string) {
  drop((message) => message.id === id || (localId !== undefined && message.localId === localId));
}

/** After a new register: echoes whose messages the fresh lists hold are settled. */
export const settleStored = () => drop((message) => message.id !== undefined && messages.has(message.id));
