import { badRequest } from "../http/errors";
import { RESOLVED_TOPIC_PREFIX } from "../messages/content";
import type { EventNarrowTerm } from "./spec";

/**
 * The narrow a queue filters message events by (register's `narrow`). Unlike GET /messages it
 * only filters what the user receives anyway, so it needs just the fields of the message event
 * itself, as the reference's event narrows do.
 */

/** The fields of a message event's `message` that narrows and queue transforms read. */
export interface MessageLike {
  type: "stream" | "private";
  display_recipient: string | unknown[];
  stream_id?: number;
  subject: string;
  sender_id: number;
  sender_email: string;
}

const CHANNEL_OPERATORS = new Set(["channel", "stream"]);
const IS_OPERANDS = new Set(["dm", "private", "starred", "mentioned", "alerted", "unread", "resolved"]);

/** Checks a narrow sent to register; the message names the first unusable term. */
export function checkEventNarrow(narrow: string[][]): EventNarrowTerm[] {
  return narrow.map((term) => {
    if (term.length !== 2) throw badRequest("Invalid 'narrow': each term must be a list of an operator and an operand.");
    const [operator, operand] = term;
    const supported = CHANNEL_OPERATORS.has(operator) || operator === "topic" || operator === "sender" || operator === "is";
    if (!supported) throw badRequest(`Operator ${operator} not supported.`);
    if (operator === "is" && !IS_OPERANDS.has(operand)) throw badRequest(`Invalid 'narrow': 'is:${operand}' is not supported for events.`);
    return [operator, operand];
  });
}

const MENTION_FLAGS = ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned"];
const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function satisfies([operator, operand]: EventNarrowTerm, message: MessageLike, flags: readonly string[]): boolean {
  const isChannel = message.type === "stream";
  if (CHANNEL_OPERATORS.has(operator)) {
    return isChannel && (sameText(String(message.display_recipient), operand) || String(message.stream_id) === operand);
  }
  switch (operator) {
    case "topic":
      return isChannel && sameText(message.subject, operand);
    case "sender":
      return sameText(message.sender_email, operand) || String(message.sender_id) === operand;
  }
  switch (operand) {
    case "dm":
    case "private":
      return message.type === "private";
    case "starred":
      return flags.includes("starred");
    case "mentioned":
      return MENTION_FLAGS.some((flag) => flags.includes(flag));
    case "alerted":
      return flags.includes("has_alert_word");
    case "unread":
      return !flags.includes("read");
    default: // resolved
      return isChannel && message.subject.startsWith(RESOLVED_TOPIC_PREFIX);
  }
}

/** Whether a message (with this queue's user's flags) passes every term of the narrow. */
export function matchesEventNarrow(narrow: readonly EventNarrowTerm[], message: MessageLike, flags: readonly string[]): boolean {
  return narrow.every((term) => satisfies(term, message, flags));
}
