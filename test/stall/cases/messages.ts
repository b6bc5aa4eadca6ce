import { type CaseList, range } from "../cases";
import { BUSY, SIZES, type StallOrg } from "../organization";

/**
 * Sending, reading, searching, flagging, editing, moving and deleting messages. The order
 * matters where cases share a person's read state: the member's flags cases read and unread
 * 100,000 messages, mark_all_as_read then has all of those to do, and the flags-for-narrow
 * cases find read messages to unread and then unread ones to read. The topic and channel are
 * marked read by people no other case touches.
 */

/** Markdown at the message length limit that makes the renderer work: mentions of hundreds of people, emoji, links, emphasis. */
export function heavyMarkdown(length = 9_900): string {
  let text = "";
  for (let i = 0; text.length < length; i++) text += `@**User ${(i % SIZES.people) + 1}** :smile: **bold _and_ more** https://example.com/${i} \`code\` > quote\n`;
  return text.slice(0, length);
}

const general = (org: StallOrg) => org.busyChannelIds[BUSY.general];
/** Words every message of the organization holds (organization.ts writes them), as many as a narrow may search for but one. */
const COMMON_WORDS = ["message", "about", "and", "see", "https", "example", "com", "mess", "abo"];
/** The most messages one GET /messages or flags-for-narrow call takes (the reference's limit). */
const MOST = 5000;
/** About as many message IDs as fit in a URL (Parley refuses URLs over 512 KiB), all readable by the member. */
const idsForUrl = (org: StallOrg) => range(org.newestMessageId - 50_000, org.newestMessageId);
const messagesPage = (narrow: unknown[], extra: Record<string, unknown> = {}) => () => ({ anchor: "newest", num_before: MOST, num_after: 0, narrow, apply_markdown: true, ...extra });

export const messageCases: CaseList = {
  "POST /api/v1/messages": {
    class: "sends and rendering",
    as: "member",
    input: "a message at the length limit, dense with mentions, emoji and links, to a channel of a thousand people",
    params: (org) => ({ type: "stream", to: general(org), topic: "heavy", content: heavyMarkdown() }),
  },
  "GET /api/v1/messages": [
    { class: "reads and searches", as: "member", input: "the most messages one call returns, rendered", params: messagesPage([]) },
    {
      class: "reads and searches",
      as: "member",
      input: "unread messages around the first unread one, for someone with every message unread",
      params: () => ({ anchor: "first_unread", num_before: MOST / 2, num_after: MOST / 2, narrow: [{ operator: "is", operand: "unread" }] }),
    },
    { class: "reads and searches", as: "member", input: "a search for a word in every twelfth message, all history", params: messagesPage([{ operator: "search", operand: "deploy" }]) },
    { class: "reads and searches", as: "member", input: "a narrow nothing matches, over the whole personal history", params: messagesPage([{ operator: "has", operand: "image" }]) },
    {
      class: "reads and searches",
      as: "member",
      input: "a search for the most words a narrow may hold, each in every message, so nothing matches and all history is walked",
      params: messagesPage([{ operator: "search", operand: COMMON_WORDS.join(" ") + " nowhere" }]),
    },
    {
      class: "reads and searches",
      as: "member",
      input: "the most words a narrow may hold as excluded searches, each in every message",
      params: messagesPage(COMMON_WORDS.map((word) => ({ operator: "search", operand: word, negated: true }))),
    },
    { class: "reads and searches", as: "member", input: "the most message IDs one call takes", params: (org) => ({ message_ids: range(org.newestMessageId - MOST + 1, org.newestMessageId), apply_markdown: true }) },
  ],
  "GET /api/v1/messages/matches_narrow": {
    class: "reads and searches",
    as: "member",
    input: "as many message IDs as a URL holds, with a search narrow",
    params: (org) => ({ msg_ids: idsForUrl(org), narrow: [{ operator: "search", operand: "deploy" }] }),
  },
  "GET /api/v1/messages/:message_id": {
    class: "reads and searches",
    as: "member",
    input: "the message edited most",
    path: (org) => `/api/v1/messages/${org.editedMessageId}`,
  },
  "POST /api/v1/messages/flags": [
    { class: "flags", as: "member", input: "the finding: 100,000 message IDs, starred", params: () => ({ messages: range(1, 100_000), op: "add", flag: "starred" }) },
    { class: "flags", as: "member", input: "100,000 message IDs marked unread (each change tells where the message is)", params: () => ({ messages: range(1, 100_000), op: "remove", flag: "read" }) },
    { class: "flags", as: "member", input: "100,000 message IDs marked read", params: () => ({ messages: range(1, 100_000), op: "add", flag: "read" }) },
  ],
  "POST /api/v1/mark_all_as_read": {
    class: "mark as read",
    as: "member",
    input: "everything unread (150,000 messages; the ones marked unread by hand above too)",
    again: (body) => body.complete === false,
  },
  "POST /api/v1/messages/flags/narrow": [
    { class: "flags", as: "member", input: "the most messages one call changes, marked unread", params: () => ({ anchor: "oldest", num_before: 0, num_after: MOST, narrow: [], op: "remove", flag: "read" }) },
    {
      class: "flags",
      as: "member",
      input: "the most unread messages one call changes, marked read from the first unread one",
      params: () => ({ anchor: "first_unread", num_before: 0, num_after: MOST, narrow: [{ operator: "is", operand: "unread" }], op: "add", flag: "read" }),
    },
  ],
  "POST /api/v1/mark_topic_as_read": {
    class: "mark as read",
    as: "moderator",
    input: "a topic of 20,000 unread messages",
    params: (org) => ({ stream_id: org.bigTopics.read.channelId, topic_name: org.bigTopics.read.topic }),
  },
  "POST /api/v1/mark_stream_as_read": {
    class: "mark as read",
    as: "guest",
    input: "the channel with a 20,000-message topic, all unread",
    params: (org) => ({ stream_id: org.bigTopics.read.channelId }),
  },
  "PATCH /api/v1/messages/:message_id": [
    {
      class: "moves and edits",
      as: "admin",
      input: "a 20,000-message topic renamed (change_all)",
      path: (org) => `/api/v1/messages/${org.bigTopics["moved within"].firstId + 100}`,
      params: () => ({ topic: "renamed", propagate_mode: "change_all" }),
    },
    {
      class: "moves and edits",
      as: "admin",
      input: "a 20,000-message topic moved to another channel of a thousand people (change_all)",
      path: (org) => `/api/v1/messages/${org.bigTopics["moved away"].firstId + 100}`,
      params: (org) => ({ stream_id: org.busyChannelIds[BUSY.movedTo], propagate_mode: "change_all" }),
    },
    {
      class: "moves and edits",
      as: "admin",
      input: "a 20,000-message topic resolved from its middle on (change_later)",
      path: (org) => `/api/v1/messages/${org.bigTopics.resolved.firstId + SIZES.bigTopic / 2}`,
      params: () => ({ topic: "✔ big resolved", propagate_mode: "change_later" }),
    },
    {
      class: "moves and edits",
      as: "member",
      input: "the much edited message edited again, to the heaviest Markdown",
      path: (org) => `/api/v1/messages/${org.editedMessageId}`,
      params: () => ({ content: heavyMarkdown() }),
    },
  ],
  "DELETE /api/v1/messages/:message_id": {
    class: "deletes",
    as: "admin",
    input: "the message with a thousand reactions",
    path: (org) => `/api/v1/messages/${org.reactedMessageId}`,
  },
  "POST /api/v1/streams/:stream_id/delete_topic": {
    class: "deletes",
    as: "admin",
    input: "a topic of 20,000 messages, repeated while it answers complete: false",
    path: (org) => `/api/v1/streams/${org.bigTopics.deleted.channelId}/delete_topic`,
    params: (org) => ({ topic_name: org.bigTopics.deleted.topic }),
    again: (body) => body.complete === false,
  },
  "POST /api/v1/messages/:message_id/reactions": {
    class: "moves and edits",
    as: "member",
    input: "a reaction to the message with a thousand others, in a channel of a thousand people",
    path: (org) => `/api/v1/messages/${org.editedMessageId}/reactions`,
    params: () => ({ emoji_name: "smile" }),
  },
  "DELETE /api/v1/messages/:message_id/reactions": { none: "one reaction row; its event goes to the channel's subscribers, as the adding case's does" },
  "GET /api/v1/messages/:message_id/history": {
    class: "reads and searches",
    as: "member",
    input: "a message edited 300 times, each version 10,000 characters (every version is diffed against the one before)",
    path: (org) => `/api/v1/messages/${org.editedMessageId}/history`,
  },
  "GET /api/v1/messages/:message_id/read_receipts": {
    class: "reads and searches",
    as: "member",
    input: "a message a thousand people have read",
    path: (org) => `/api/v1/messages/${org.editedMessageId}/read_receipts`,
  },
  "POST /api/v1/messages/render": { class: "sends and rendering", as: "member", input: "the heaviest Markdown at the length limit", params: () => ({ content: heavyMarkdown() }) },
  "GET /api/v1/users/me/:stream_id/topics": {
    class: "reads and searches",
    as: "member",
    input: "the channel holding a 20,000-message topic and thousands of others",
    path: (org) => `/api/v1/users/me/${org.bigTopics.read.channelId}/topics`,
  },
  "POST /api/v1/scheduled_messages": {
    class: "sends and rendering",
    as: "member",
    input: "the heaviest Markdown at the length limit, to a channel of a thousand people",
    params: (org) => ({ type: "stream", to: general(org), topic: "later", content: heavyMarkdown(), scheduled_delivery_timestamp: 4_000_000_000 }),
  },
  "GET /api/v1/scheduled_messages": { none: "the caller's own scheduled messages, each created by a request of its own" },
  "PATCH /api/v1/scheduled_messages/:scheduled_message_id": { none: "one scheduled message; its content is rendered as POST /scheduled_messages renders it" },
  "DELETE /api/v1/scheduled_messages/:scheduled_message_id": { none: "one row" },
  "GET /api/v1/drafts": { none: "the caller's own drafts, at most a thousand per request that made them" },
  "POST /api/v1/drafts": {
    class: "sends and rendering",
    as: "member",
    input: "a thousand drafts, as much as one JSON parameter holds",
    params: (org) => ({ drafts: Array.from({ length: 1000 }, (_, i) => ({ type: "stream", to: [general(org)], topic: `draft ${i}`, content: "d".repeat(900), timestamp: 1 })) }),
  },
  "PATCH /api/v1/drafts/:draft_id": { none: "one row" },
  "DELETE /api/v1/drafts/:draft_id": { none: "one row" },
  "POST /api/v1/typing": {
    class: "sends and rendering",
    as: "member",
    input: "typing in a channel of a thousand people",
    params: (org) => ({ type: "stream", op: "start", stream_id: general(org), topic: "heavy" }),
  },
  "POST /api/v1/messages/:message_id/typing": { none: "one event, to the message's channel (as POST /typing to a channel)" },
};
