import { narrowContains, type Narrow } from "../../model/narrow";
import type { Message } from "../../model/types";
import type { PendingMessage } from "../../state/echo";
import { channelName, me, muting, userName } from "../../state/store";

/**
 * Local echoes shown in a list: those going to a conversation the list's narrow holds, told
 * apart by testing a stand-in message against the narrow, as a live message would be. One
 * whose real message the list already holds is settled and not shown twice.
 */

/** A pending send as the message it will become, for the narrow test and the row grouping. */
export function pendingAsMessage(send: PendingMessage): Message {
  const self = me.value;
  const { destination } = send;
  const people = destination.type === "private" ? [...new Set([...destination.userIds, self.userId])] : [];
  return {
    id: send.id ?? 0,
    type: destination.type,
    sender_id: self.userId,
    sender_full_name: self.fullName,
    sender_email: self.email,
    avatar_url: self.avatarUrl,
    content: "",
    display_recipient: destination.type === "stream" ? (channelName(destination.channelId) ?? "") : people.map((id) => ({ id, email: "", full_name: userName(id) ?? "" })),
    stream_id: destination.type === "stream" ? destination.channelId : undefined,
    subject: destination.type === "stream" ? destination.topic : "",
    timestamp: send.timestamp,
    reactions: [],
    flags: ["read"],
  };
}

export interface ShownPending {
  send: PendingMessage;
  standIn: Message;
}

export function pendingIn(narrow: Narrow, all: PendingMessage[], listed: Set<number>): ShownPending[] {
  const shown: ShownPending[] = [];
  for (const send of all) {
    if (send.id !== undefined && listed.has(send.id)) continue;
    const standIn = pendingAsMessage(send);
    if (narrowContains(narrow, standIn, me.value.userId, muting) === true) shown.push({ send, standIn });
  }
  return shown;
}
