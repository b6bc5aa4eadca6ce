import { getRealm } from "../db/realm";
import { deleteScheduledMessage, findScheduledMessage, insertScheduledMessage, updateScheduledMessage, type ScheduledMessage, type ScheduledMessageFields } from "../db/scheduledMessages";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { isHumanClient } from "../messages/client";
import { renderForSending } from "../messages/compose";
import { normalizeContent, normalizeTopic } from "../messages/content";
import { resolveDestination } from "../messages/recipients";
import { now } from "../model/clock";
import { scheduledMessageToApi } from "../shapes/scheduledMessages";

/**
 * Scheduling messages (spec 4.2) and the reference's edit and delete. A scheduled message is
 * checked as a send would be when it is scheduled or edited, and again when it is delivered
 * (actions/scheduledMessageDelivery.ts), since permissions may change in between.
 */

export interface ScheduleRequest {
  type: string;
  to: string;
  content: string;
  topic?: string;
  scheduledDeliveryTimestamp: number;
  readBySender?: boolean;
  client: string;
}

export interface ScheduledEdit {
  type?: string;
  to?: string;
  content?: string;
  topic?: string;
  scheduledDeliveryTimestamp?: number;
  client: string;
}

const KINDS: Record<string, "stream" | "private"> = { stream: "stream", channel: "stream", direct: "private", private: "private" };

function kindOf(type: string): "stream" | "private" {
  const kind = KINDS[type];
  if (!kind) throw badRequest("Invalid type");
  return kind;
}

function decode(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `to` of a channel message: the channel's ID (a list of one ID is taken too). */
function channelIdOf(to: string): number {
  let value = decode(to);
  if (Array.isArray(value) && value.length === 1) value = value[0];
  if (!Number.isSafeInteger(value)) throw badRequest("Invalid data type for channel ID");
  return value as number;
}

/** `to` of a direct message: a list of user IDs (a lone ID is taken as a list of one). */
function userIdsOf(to: string): number[] {
  let value = decode(to);
  if (Number.isSafeInteger(value)) value = [value];
  if (!Array.isArray(value)) throw badRequest("Invalid data type for recipients");
  if (!value.every((id) => Number.isSafeInteger(id))) throw badRequest("Recipient list may only contain user IDs");
  if (value.length === 0) throw badRequest("Message must have recipients");
  return [...new Set(value as number[])];
}

function checkFuture(timestamp: number) {
  if (timestamp <= now()) throw badRequest("Scheduled delivery time must be in the future.");
}

/** The schedule call's error for an unknown channel carries its ID (spec 7), not its name. */
function channelByIdError(error: unknown, channelId: number): unknown {
  if (error instanceof ApiError && error.code === "STREAM_DOES_NOT_EXIST") return new ApiError("STREAM_DOES_NOT_EXIST", `Channel with ID '${channelId}' does not exist`, { stream_id: channelId });
  return error;
}

interface Checked {
  fields: Omit<ScheduledMessageFields, "scheduledTimestamp">;
  /** A direct message to nobody but oneself. */
  toSelf: boolean;
}

/** The message as a send would check it now: where it goes, the sender's right to post there, its text. */
async function checkMessage(tx: Tx, sender: User, kind: "stream" | "private", to: string, topic: string | undefined, rawContent: string, client: string): Promise<Checked> {
  const realm = await getRealm(tx);
  const content = normalizeContent(rawContent);
  if (kind === "stream") {
    const channelId = channelIdOf(to);
    const normalizedTopic = normalizeTopic(topic, realm.settings);
    try {
      await resolveDestination(tx, sender, realm, { kind: "channel", channelId });
    } catch (error) {
      throw channelByIdError(error, channelId);
    }
    const rendered = await renderForSending(tx, sender, realm, content);
    return { fields: { type: "stream", to: [channelId], topic: normalizedTopic, content, renderedContent: rendered.html, client }, toSelf: false };
  }
  const destination = await resolveDestination(tx, sender, realm, { kind: "direct", userIds: userIdsOf(to) });
  if (destination.kind !== "direct") throw new Error("A direct address resolved to a channel");
  const participants = destination.participants.map((user) => user.id);
  const rendered = await renderForSending(tx, sender, realm, content);
  return { fields: { type: "private", to: participants, topic: "", content, renderedContent: rendered.html, client }, toSelf: participants.length === 1 };
}

const scheduledMessageDoesNotExist = () => new ApiError("BAD_REQUEST", "Scheduled message does not exist", {}, { status: 404 });

async function accessScheduledMessage(tx: Tx, sender: User, id: number): Promise<ScheduledMessage> {
  const row = await findScheduledMessage(tx, sender.id, id);
  if (!row) throw scheduledMessageDoesNotExist();
  return row;
}

/** POST /scheduled_messages (spec 4.2): Pending until its time; the sender's clients hear of it. */
export async function scheduleMessage(sender: User, request: ScheduleRequest): Promise<{ scheduled_message_id: number }> {
  const kind = kindOf(request.type);
  checkFuture(request.scheduledDeliveryTimestamp);
  return await write(async (tx) => {
    const { fields, toSelf } = await checkMessage(tx, sender, kind, request.to, request.topic, request.content, request.client);
    // The reference's default: read by the sender when typed in a person's client, unless it is to themselves only.
    const readBySender = request.readBySender ?? (isHumanClient(request.client) && !toSelf);
    const row = await insertScheduledMessage(tx, sender.id, { ...fields, scheduledTimestamp: request.scheduledDeliveryTimestamp, readBySender });
    tx.emit({ type: "scheduled_messages", op: "add", scheduled_messages: [scheduledMessageToApi(row)] }, [sender.id]);
    return { scheduled_message_id: row.id };
  });
}

/**
 * PATCH /scheduled_messages/{id}, as the reference: a new type needs a new `to` (and a topic
 * for a channel); changing where it goes or what it says checks the message again; a message
 * whose delivery failed needs a new time, and the edit clears the failure.
 */
export async function editScheduledMessage(sender: User, id: number, edit: ScheduledEdit) {
  if (edit.type === undefined && edit.to === undefined && edit.topic === undefined && edit.content === undefined && edit.scheduledDeliveryTimestamp === undefined) {
    throw badRequest("Nothing to change");
  }
  const newKind = edit.type === undefined ? undefined : kindOf(edit.type);
  if (newKind !== undefined && edit.to === undefined) throw badRequest("Recipient required when updating type of scheduled message.");
  if (newKind === "stream" && edit.topic === undefined) throw badRequest("Topic required when updating scheduled message type to stream.");
  if (edit.scheduledDeliveryTimestamp !== undefined) checkFuture(edit.scheduledDeliveryTimestamp);
  await write(async (tx) => {
    const row = await accessScheduledMessage(tx, sender, id);
    if (row.delivered) throw badRequest("Scheduled message was already sent");
    if (row.failed && edit.scheduledDeliveryTimestamp === undefined) throw badRequest("Scheduled delivery time must be in the future.");
    const changes: Partial<ScheduledMessageFields> = { client: edit.client };
    if (newKind !== undefined || edit.to !== undefined || edit.content !== undefined) {
      const kind = newKind ?? row.type;
      const to = edit.to ?? JSON.stringify(kind === "stream" ? row.to[0] : row.to);
      const topic = edit.topic ?? row.topic;
      Object.assign(changes, (await checkMessage(tx, sender, kind, to, topic, edit.content ?? row.content, edit.client)).fields);
    } else if (edit.topic !== undefined && row.type === "stream") {
      changes.topic = normalizeTopic(edit.topic, (await getRealm(tx)).settings);
    }
    if (edit.scheduledDeliveryTimestamp !== undefined) changes.scheduledTimestamp = edit.scheduledDeliveryTimestamp;
    const edited = await updateScheduledMessage(tx, row.id, changes);
    tx.emit({ type: "scheduled_messages", op: "update", scheduled_message: scheduledMessageToApi(edited) }, [sender.id]);
  });
}

/** DELETE /scheduled_messages/{id}: cancels it; a message already sent stays sent. */
export async function removeScheduledMessage(sender: User, id: number) {
  await write(async (tx) => {
    const row = await accessScheduledMessage(tx, sender, id);
    if (row.delivered) throw scheduledMessageDoesNotExist();
    await deleteScheduledMessage(tx, row.id);
    tx.emit({ type: "scheduled_messages", op: "remove", scheduled_message_id: row.id }, [sender.id]);
  });
}
