import { checkDirectMessagePermission, checkMaySendToChannel } from "../access/messageSending";
import type { Channel } from "../db/channels";
import { accessUserByEmail } from "../access/users";
import { channelRecipient, directRecipient } from "../db/messages";
import { usersWithIds } from "../db/messageReferences";
import { realmHost, type Realm } from "../db/realm";
import { channelForSending, channelSubscribers, findChannelRecipientId } from "../db/sendQueries";
import type { Reader, SendTx } from "../db/types";
import type { User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { visibleEmail } from "../shapes/messages";

/**
 * Who a message goes to (spec 4.1 `type` and `to`): parsing what the client wrote, then
 * resolving it inside the send transaction together with the sender's right to post there.
 */

/** What `type` + `to` name, before any lookup. */
export type Address = { kind: "channel"; channelId: number } | { kind: "channel"; channelName: string } | { kind: "direct"; userIds: number[] } | { kind: "direct"; emails: string[] };

const MESSAGE_TYPES: Record<string, "channel" | "direct"> = { stream: "channel", channel: "channel", direct: "direct", private: "direct" };

/** `to` may be JSON (a number, a string, a list) or plain text, as the reference accepts it. */
function decode(to: string): unknown {
  try {
    return JSON.parse(to);
  } catch {
    return to;
  }
}

export function parseAddress(type: string, to: string): Address {
  const kind = MESSAGE_TYPES[type];
  if (!kind) throw badRequest("Invalid message type");
  return kind === "channel" ? parseChannelAddress(to) : parseDirectAddress(to);
}

function parseChannelAddress(to: string): Address {
  let value = decode(to);
  if (Array.isArray(value)) {
    if (value.length !== 1) throw badRequest("Expected exactly one channel");
    value = value[0];
  }
  if (typeof value === "string" && value.trim() !== "") return { kind: "channel", channelName: value.trim() };
  if (Number.isSafeInteger(value)) return { kind: "channel", channelId: value as number };
  throw badRequest("Invalid data type for channel");
}

function parseDirectAddress(to: string): Address {
  let value = decode(to);
  if (typeof value === "string") value = value.split(",");
  if (Number.isSafeInteger(value)) value = [value];
  if (!Array.isArray(value)) throw badRequest("Invalid data type for recipients");
  const ids = value.filter((item): item is number => Number.isSafeInteger(item));
  const strings = value.filter((item): item is string => typeof item === "string");
  if (ids.length + strings.length !== value.length) throw badRequest("Invalid data type for recipients");
  if (ids.length > 0 && strings.length > 0) throw badRequest("Recipient lists may contain emails or user IDs, but not both.");
  if (ids.length > 0) return { kind: "direct", userIds: [...new Set(ids)] };
  const emails = [...new Set(strings.map((email) => email.trim()).filter((email) => email !== ""))];
  if (emails.length === 0) throw badRequest("Message must have recipients");
  return { kind: "direct", emails };
}

export interface ChannelDestination {
  kind: "channel";
  channel: Channel;
  recipientId: number;
  /** Active subscribers who are active users. */
  subscriberIds: readonly number[];
  /** Whether the sender is subscribed and muted the channel. */
  senderMuted: boolean;
}

export interface DirectDestination {
  kind: "direct";
  /** Everyone in the conversation, the sender included, by ID. */
  participants: User[];
  recipientId: number;
}

export type Destination = ChannelDestination | DirectDestination;

/** Finds where the message goes and checks the sender may post there; throws the spec's errors. */
export async function resolveDestination(tx: SendTx, sender: User, realm: Realm, address: Address): Promise<Destination> {
  if (address.kind === "channel") {
    const channel = await channelForSending(tx, "channelName" in address ? { name: address.channelName } : { id: address.channelId });
    if (!channel) throw channelDoesNotExist(address);
    const subscribers = await channelSubscribers(tx, channel.id);
    await checkMaySendToChannel(tx, sender, channel, subscribers.userIds.includes(sender.id), () => channelDoesNotExist(address));
    const recipientId = (await findChannelRecipientId(tx, channel.id)) ?? (await channelRecipient(tx, channel.id)).id;
    return { kind: "channel", channel, recipientId, subscriberIds: subscribers.userIds, senderMuted: subscribers.mutedIds.has(sender.id) };
  }
  const participants = await directParticipants(tx, sender, realm, address);
  await checkDirectMessagePermission(tx, sender, realm, participants);
  return { kind: "direct", participants, recipientId: (await directRecipient(tx, participants.map((user) => user.id))).id };
}

function channelDoesNotExist(address: Address & { kind: "channel" }): ApiError {
  if ("channelName" in address) return new ApiError("STREAM_DOES_NOT_EXIST", `Channel '${address.channelName}' does not exist`, { stream: address.channelName });
  return new ApiError("STREAM_DOES_NOT_EXIST", `Channel with ID '${address.channelId}' does not exist`, { stream: String(address.channelId), stream_id: address.channelId });
}

/** The conversation's members: the named users (active, known to the sender) and the sender. */
async function directParticipants(tx: Reader, sender: User, realm: Realm, address: Address & { kind: "direct" }): Promise<User[]> {
  const named = "userIds" in address ? await usersByIds(tx, address.userIds) : await usersByEmails(tx, sender, realm, address.emails);
  const deactivated = named.find((user) => !user.isActive);
  if (deactivated) throw badRequest(`'${visibleEmail(sender, deactivated, realmHost(realm))}' is no longer using Zulip.`);
  const byId = new Map(named.map((user) => [user.id, user]));
  byId.set(sender.id, sender);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

async function usersByIds(tx: Reader, ids: number[]): Promise<User[]> {
  const found = await usersWithIds(tx, ids);
  const missing = ids.find((id) => !found.some((user) => user.id === id));
  if (missing !== undefined) throw badRequest(`Invalid user ID ${missing}`);
  return found;
}

async function usersByEmails(tx: Reader, sender: User, realm: Realm, emails: string[]): Promise<User[]> {
  const users: User[] = [];
  for (const email of emails) {
    try {
      users.push(await accessUserByEmail(tx, sender, email, realmHost(realm)));
    } catch (error) {
      if (error instanceof ApiError) throw badRequest(`Invalid email '${email}'`);
      throw error;
    }
  }
  return users;
}
