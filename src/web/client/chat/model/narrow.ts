import type { Message } from "./types";

/**
 * Narrows: what the message view shows, as a URL fragment, as the API's narrow terms, and as a
 * test of whether a live message belongs in it. The fragments are Zulip's own
 * (`#narrow/channel/12-general/topic/deploy.20plan`), so links work across clients: the number
 * decides, the name after it is decoration. Pure functions, with no DOM and no state.
 */

export type Narrow =
  | { kind: "feed" }
  | { kind: "channel"; channelId: number; topic?: string }
  /** Everyone in the conversation but me, sorted; just me for notes to self. */
  | { kind: "dm"; userIds: number[] }
  | { kind: "mentions" }
  | { kind: "starred" }
  | { kind: "search"; query: string };

/** A narrow and, when the URL names one, the message to open it at. */
export interface Place {
  narrow: Narrow;
  anchor?: number;
}

export const FEED: Narrow = { kind: "feed" };

/** Zulip's hash encoding: URI-encode, then `.` for `%` (and `.2E` for a dot). */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, "%2E")
    .replace(/%/g, ".");
}

export function decodeHashComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\./g, "%"));
  } catch {
    return text;
  }
}

export interface Names {
  channelName: (channelId: number) => string | undefined;
  userName: (userId: number) => string | undefined;
}

/** The URL fragment of a place, with `#`. */
export function placeToHash(place: Place, names: Names): string {
  const { narrow } = place;
  let hash: string;
  switch (narrow.kind) {
    case "feed":
      hash = place.anchor === undefined ? "#feed" : "#narrow";
      break;
    case "channel": {
      const name = names.channelName(narrow.channelId) ?? "";
      hash = `#narrow/channel/${narrow.channelId}-${encodeHashComponent(name.replace(/ /g, "-"))}`;
      if (narrow.topic !== undefined) hash += `/topic/${encodeHashComponent(narrow.topic)}`;
      break;
    }
    case "dm": {
      const slug = narrow.userIds.length === 1 ? (names.userName(narrow.userIds[0]) ?? "").replace(/ /g, "-") : narrow.userIds.length > 1 ? "group" : "";
      hash = `#narrow/dm/${narrow.userIds.join(",")}${slug ? `-${encodeHashComponent(slug)}` : ""}`;
      break;
    }
    case "mentions":
      hash = "#narrow/is/mentioned";
      break;
    case "starred":
      hash = "#narrow/is/starred";
      break;
    case "search":
      hash = `#narrow/search/${encodeHashComponent(narrow.query)}`;
      break;
  }
  return place.anchor === undefined ? hash : `${hash}/near/${place.anchor}`;
}

const leadingId = (operand: string) => {
  const match = /^(\d+)(?:-|$)/.exec(operand);
  return match ? Number(match[1]) : undefined;
};

/**
 * The place a URL fragment names, or undefined when it names none we show. `myId` turns a
 * legacy fragment that lists me among the people into the others.
 */
export function hashToPlace(hash: string, myId: number): Place | undefined {
  const path = hash.replace(/^#/, "");
  if (path === "" || path === "feed" || path === "all-messages" || path === "narrow") return { narrow: FEED };
  const parts = path.split("/");
  if (parts[0] !== "narrow") return undefined;
  let channelId: number | undefined;
  let topic: string | undefined;
  let dm: number[] | undefined;
  let is: string | undefined;
  let search: string | undefined;
  let anchor: number | undefined;
  for (let index = 1; index + 1 < parts.length; index += 2) {
    const operator = parts[index];
    const operand = parts[index + 1];
    switch (operator) {
      case "channel":
      case "stream":
        channelId = leadingId(operand);
        if (channelId === undefined) return undefined;
        break;
      case "topic":
      case "subject":
        topic = decodeHashComponent(operand);
        break;
      case "dm":
      case "pm-with": {
        const ids = /^([\d,]+)/.exec(operand)?.[1];
        if (!ids) return undefined;
        dm = ids.split(",").filter(Boolean).map(Number);
        break;
      }
      case "is":
        is = operand;
        break;
      case "search":
        search = decodeHashComponent(operand);
        break;
      case "near":
      case "with":
      case "id": {
        const id = Number(operand);
        if (Number.isSafeInteger(id) && id > 0) anchor = id;
        break;
      }
      default:
        return undefined;
    }
  }
  let narrow: Narrow;
  if (search !== undefined) narrow = { kind: "search", query: search };
  else if (channelId !== undefined) narrow = topic === undefined ? { kind: "channel", channelId } : { kind: "channel", channelId, topic };
  else if (dm) narrow = { kind: "dm", userIds: dmPeople(dm, myId) };
  else if (is === "mentioned") narrow = { kind: "mentions" };
  else if (is === "starred") narrow = { kind: "starred" };
  else if (is === undefined) narrow = FEED;
  else return undefined;
  return anchor === undefined ? { narrow } : { narrow, anchor };
}

/** The other people of a conversation, sorted; just me when it is my own notes. */
export function dmPeople(userIds: number[], myId: number): number[] {
  const others = [...new Set(userIds)].filter((id) => id !== myId).sort((a, b) => a - b);
  return others.length ? others : [myId];
}

/** The conversation a direct message is in, as dmPeople gives it. */
export function messageDmPeople(message: Message, myId: number): number[] {
  const recipients = Array.isArray(message.display_recipient) ? message.display_recipient.map((person) => person.id) : [];
  return dmPeople(recipients.length ? recipients : [message.sender_id], myId);
}

export const dmKey = (userIds: number[]) => userIds.join(",");

/** The API's narrow terms for GET /messages. */
export function narrowTerms(narrow: Narrow): Array<{ operator: string; operand: unknown }> {
  switch (narrow.kind) {
    case "feed":
      return [{ operator: "in", operand: "home" }];
    case "channel":
      return narrow.topic === undefined
        ? [{ operator: "channel", operand: narrow.channelId }]
        : [
            { operator: "channel", operand: narrow.channelId },
            { operator: "topic", operand: narrow.topic },
          ];
    case "dm":
      return [{ operator: "dm", operand: narrow.userIds }];
    case "mentions":
      return [{ operator: "is", operand: "mentioned" }];
    case "starred":
      return [{ operator: "is", operand: "starred" }];
    case "search":
      return [{ operator: "search", operand: narrow.query }];
  }
}

/** A stable key per narrow, for caches. */
export const narrowKey = (narrow: Narrow) => JSON.stringify(narrowTerms(narrow));

export const sameNarrow = (a: Narrow, b: Narrow) => narrowKey(a) === narrowKey(b);

/** Topics compare without case, as the server groups them. */
export const sameTopic = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const MENTION_FLAGS = ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "wildcard_mentioned"];

export const isMention = (message: Pick<Message, "flags">) => message.flags.some((flag) => MENTION_FLAGS.includes(flag));

export interface Muting {
  isChannelMuted: (channelId: number) => boolean;
  /** Muted topics, and topics followed or unmuted in a muted channel, as user_topics say. */
  isTopicVisibleInFeed: (channelId: number, topic: string) => boolean;
}

/**
 * Whether a message belongs in a narrow: true, false, or undefined when only the server can
 * tell (search), in which case a live message is not added and the list is fetched again.
 */
export function narrowContains(narrow: Narrow, message: Message, myId: number, muting: Muting): boolean | undefined {
  switch (narrow.kind) {
    case "feed":
      return message.type === "private" || message.stream_id === undefined || muting.isTopicVisibleInFeed(message.stream_id, message.subject);
    case "channel":
      return message.type === "stream" && message.stream_id === narrow.channelId && (narrow.topic === undefined || sameTopic(message.subject, narrow.topic));
    case "dm":
      return message.type === "private" && dmKey(messageDmPeople(message, myId)) === dmKey(narrow.userIds);
    case "mentions":
      return isMention(message);
    case "starred":
      return message.flags.includes("starred");
    case "search":
      return undefined;
  }
}

/** The narrow a message's conversation is: its topic, or its DM conversation. */
export function conversationOf(message: Message, myId: number): Narrow {
  if (message.type === "stream" && message.stream_id !== undefined) return { kind: "channel", channelId: message.stream_id, topic: message.subject };
  return { kind: "dm", userIds: messageDmPeople(message, myId) };
}
