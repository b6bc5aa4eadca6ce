import { placeToHash, type Narrow } from "../chat/model/narrow";
import type { PushConversation } from "./payload";

/**
 * What the service worker and the chat page say to each other, and the chat URL a pushed
 * conversation opens at. The fragment is built by the chat's own placeToHash, so the two can
 * never disagree on the format; the worker knows no names, and the names in a fragment are
 * decoration (the numbers decide), which the chat puts back when it follows the link.
 */

/** Worker to page: show this place (a fragment of `/`), from a notification's click. */
export interface OpenRequest {
  kind: "parley-open";
  hash: string;
}

const NO_NAMES = { channelName: () => undefined, userName: () => undefined };

/** The chat's narrow for a pushed conversation. A DM's people may include me; the chat drops me when it reads the fragment. */
export function narrowOf(conversation: PushConversation): Narrow {
  if (conversation.kind === "channel") return { kind: "channel", channelId: conversation.channel_id, topic: conversation.topic };
  return { kind: "dm", userIds: [...conversation.user_ids].sort((a, b) => a - b) };
}

/** "#narrow/channel/7-/topic/lunch/near/42": the message in its conversation. */
export const conversationHash = (conversation: PushConversation, messageId: number) => placeToHash({ narrow: narrowOf(conversation), anchor: messageId }, NO_NAMES);

/** The other way: a chat narrow (a channel's topic or a DM) as a pushed conversation, for the notifications the page shows itself. */
export function conversationOfNarrow(narrow: Narrow): PushConversation | null {
  if (narrow.kind === "channel") return { kind: "channel", channel_id: narrow.channelId, topic: narrow.topic ?? "" };
  if (narrow.kind === "dm") return { kind: "dm", user_ids: narrow.userIds };
  return null;
}
