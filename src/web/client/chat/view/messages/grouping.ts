import { dmKey, messageDmPeople, type Narrow } from "../../model/narrow";
import type { Message } from "../../model/types";

/**
 * How a run of messages reads: a divider where the day changes, a header where the
 * conversation changes (only in views that mix conversations), and the sender's name and
 * avatar only at the start of a run of one person's messages. Pure: the view draws the plan.
 */

/** Messages from one person closer together than this share their name and avatar. */
export const SAME_SENDER_SECONDS = 5 * 60;

export interface RowPlan {
  message: Message;
  /** The first message of its day in the list: a day divider goes before it. */
  dayStart: boolean;
  /** A recipient header goes before it ("#channel > topic", "You and Mel"). */
  conversationStart: boolean;
  /** Its sender's name and avatar are shown (else it continues the previous message's run). */
  showSender: boolean;
}

/** Views whose messages come from more than one conversation need a header when it changes. */
export function mixesConversations(narrow: Narrow): boolean {
  return !((narrow.kind === "channel" && narrow.topic !== undefined) || narrow.kind === "dm");
}

/** Topic and DM narrows: views of one conversation. */
export const isConversationView = (narrow: Narrow) => !mixesConversations(narrow);

/** One key per conversation: a channel's topic (topics compare without case), or a DM's people. */
export function conversationKey(message: Message, myId: number): string {
  if (message.type === "stream") return `channel:${message.stream_id}:${message.subject.toLowerCase()}`;
  return `dm:${dmKey(messageDmPeople(message, myId))}`;
}

/** The local calendar day of a time, as a key. */
export function dayKey(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  return `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;
}

export function planRows(shown: Message[], options: { mixed: boolean; myId: number }): RowPlan[] {
  const plans: RowPlan[] = [];
  let previous: Message | undefined;
  let previousConversation = "";
  let previousDay = "";
  for (const message of shown) {
    const conversation = conversationKey(message, options.myId);
    const day = dayKey(message.timestamp);
    const dayStart = day !== previousDay;
    const newConversation = conversation !== previousConversation;
    const continues =
      previous !== undefined &&
      !dayStart &&
      !newConversation &&
      previous.sender_id === message.sender_id &&
      !previous.is_me_message &&
      !message.is_me_message &&
      message.timestamp - previous.timestamp <= SAME_SENDER_SECONDS;
    plans.push({ message, dayStart, conversationStart: options.mixed && (newConversation || dayStart), showSender: !continues });
    previous = message;
    previousConversation = conversation;
    previousDay = day;
  }
  return plans;
}
