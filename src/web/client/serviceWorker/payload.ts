/**
 * What the server pushes (the contract with its web-push sender): a message to show, or the
 * IDs of messages whose notifications should go because they were read or deleted. Anything
 * else is ignored, so a newer server's new kind cannot break an older worker.
 */

export type PushConversation = { kind: "dm"; user_ids: number[] } | { kind: "channel"; channel_id: number; topic: string };

export interface MessagePush {
  kind: "message";
  message_id: number;
  /** "Max Member", or "#general › lunch: Max Member". */
  title: string;
  /** A snippet of the message; empty when its content is hidden. */
  body: string;
  conversation: PushConversation;
  /** Groups one conversation's notifications: a new one replaces the last. */
  tag: string;
  realm_name: string;
  icon: string | null;
}

export interface RemovePush {
  kind: "remove";
  message_ids: number[];
}

export type PushPayload = MessagePush | RemovePush;

/** What a notification keeps, for a later "remove" and for the click. */
export interface NotificationData {
  message_id: number;
  conversation: PushConversation;
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

export function parseConversation(value: unknown): PushConversation | null {
  const conversation = value as Record<string, unknown> | null;
  if (typeof conversation !== "object" || conversation === null) return null;
  if (conversation.kind === "dm" && Array.isArray(conversation.user_ids) && conversation.user_ids.every(isId)) return { kind: "dm", user_ids: conversation.user_ids };
  if (conversation.kind === "channel" && isId(conversation.channel_id) && typeof conversation.topic === "string") return { kind: "channel", channel_id: conversation.channel_id, topic: conversation.topic };
  return null;
}

export function parsePushPayload(value: unknown): PushPayload | null {
  const push = value as Record<string, unknown> | null;
  if (typeof push !== "object" || push === null) return null;
  if (push.kind === "remove") return Array.isArray(push.message_ids) && push.message_ids.every(isId) ? { kind: "remove", message_ids: push.message_ids } : null;
  if (push.kind !== "message" || !isId(push.message_id) || typeof push.title !== "string") return null;
  const conversation = parseConversation(push.conversation);
  if (!conversation) return null;
  return {
    kind: "message",
    message_id: push.message_id,
    title: push.title,
    body: typeof push.body === "string" ? push.body : "",
    conversation,
    tag: typeof push.tag === "string" && push.tag ? push.tag : `parley-${push.message_id}`,
    realm_name: typeof push.realm_name === "string" ? push.realm_name : "",
    icon: typeof push.icon === "string" && push.icon ? push.icon : null,
  };
}
