import { Flag, type EditHistoryEntry, type Message } from "../db/messages";
import { realmHost, type Realm } from "../db/realm";
import type { User } from "../db/users";
import type { CompiledLinkifier } from "../render/linkifiers";
import { topicLinks, type TopicLink } from "../render/topicLinks";
import { avatarUrl, canSeeDeliveryEmail, standInEmail, type Viewer } from "./users";

/**
 * A message as the API shows it (spec 2.3), for GET /messages, message events and outgoing
 * webhooks alike. Built in two steps: `messageFields` is what every viewer of one kind shares
 * (both the Markdown source and the HTML, the topic as stored), and `forClient` applies what
 * one client asked for (apply_markdown, client_gravatar, empty_topic_name). Message events
 * carry the first form; events/filters.ts applies the second per queue.
 */

export interface ApiReaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: "unicode_emoji" | "realm_emoji" | "svc_extra_emoji";
  user_id: number;
}

export interface ApiSubmessage {
  msg_type: string;
  content: string;
  message_id: number;
  sender_id: number;
  id: number;
}

export interface ApiDisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy: boolean;
}

/** The viewer-independent form: content is the Markdown source, rendered_content the HTML. */
export interface MessageFields {
  id: number;
  type: "stream" | "private";
  sender_id: number;
  sender_email: string;
  sender_full_name: string;
  sender_realm_str: string;
  avatar_url: string | null;
  content: string;
  rendered_content: string;
  recipient_id: number;
  display_recipient: string | ApiDisplayRecipientUser[];
  stream_id?: number;
  subject: string;
  topic_links: TopicLink[];
  timestamp: number;
  client: string;
  is_me_message: boolean;
  reactions: ApiReaction[];
  submessages: ApiSubmessage[];
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  edit_history?: EditHistoryEntry[];
}

/** What one client receives: content in the format it asked for, with content_type saying which. */
export type ApiMessage = Omit<MessageFields, "rendered_content"> & {
  content_type: "text/html" | "text/x-markdown";
  rendered_content?: string;
  flags?: string[];
};

/** What a message object is built from; callers showing many messages fetch these in bulk. */
export interface MessageParts {
  message: Message;
  sender: User;
  /** A channel message's channel name, or a direct message's participants (sender included). */
  recipient: { channelName: string } | { users: readonly User[] };
  reactions?: readonly ApiReaction[];
  submessages?: readonly ApiSubmessage[];
}

/** Who is looking, which decides the e-mail addresses they may see. */
export interface MessageViewer {
  viewer: Viewer;
  realmHost: string;
  realmStringId: string;
  /** The organization's linkifiers, for topic_links; none until linkifiers exist. */
  linkifiers?: readonly CompiledLinkifier[];
  /** false where the organization hides edit history. */
  showEditHistory?: boolean;
}

/** What a client declared about the format it wants (register or the request's own parameters). */
export interface ClientFormat {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  /** The client shows "" as a channel topic itself (capability empty_topic_name). */
  allowEmptyTopicName: boolean;
  emptyTopicDisplayName: string;
  /** Keep rendered_content beside content, as the outgoing-webhook payload does (spec 2.3). */
  keepRenderedContent?: boolean;
}

export type MessageView = MessageViewer & ClientFormat;

/**
 * The realm's short identifier (the reference's string_id): the first label of its host name,
 * or "" when it is reached by IP address or a single-label name such as localhost.
 */
export function realmStringId(realm: Pick<Realm, "url">): string {
  const host = realmHost(realm);
  if (/^[\d.]+$/.test(host) || host.includes(":") || !host.includes(".")) return "";
  return host.split(".")[0];
}

/** The realm-dependent part of a MessageViewer. */
export const messageViewerIn = (realm: Pick<Realm, "url">, viewer: Viewer): MessageViewer => ({
  viewer,
  realmHost: realmHost(realm),
  realmStringId: realmStringId(realm),
});

/** The address of `user` that `viewer` is shown: the real one where allowed, else the stand-in. */
export const visibleEmail = (viewer: Viewer, user: User, host: string) => (canSeeDeliveryEmail(viewer, user) ? user.email : standInEmail(user.id, host));

export function messageFields(parts: MessageParts, view: MessageViewer): MessageFields {
  const { message, sender, recipient } = parts;
  const isChannel = "channelName" in recipient;
  const fields: MessageFields = {
    id: message.id,
    type: isChannel ? "stream" : "private",
    sender_id: sender.id,
    sender_email: visibleEmail(view.viewer, sender, view.realmHost),
    sender_full_name: sender.fullName,
    sender_realm_str: view.realmStringId,
    avatar_url: avatarUrl(sender),
    content: message.content,
    rendered_content: message.renderedContent,
    recipient_id: message.recipientId,
    display_recipient: isChannel ? recipient.channelName : displayRecipientUsers(recipient.users, view),
    subject: isChannel ? message.topic : "",
    topic_links: isChannel ? topicLinks(message.topic, view.linkifiers ?? []) : [],
    timestamp: message.dateSent,
    client: message.client,
    is_me_message: message.isMeMessage,
    reactions: [...(parts.reactions ?? [])],
    submessages: [...(parts.submessages ?? [])],
  };
  if (isChannel && message.channelId !== null) fields.stream_id = message.channelId;
  if (message.lastEditTime !== null) fields.last_edit_timestamp = message.lastEditTime;
  if (message.lastMovedTime !== null) fields.last_moved_timestamp = message.lastMovedTime;
  if (message.editHistory && message.editHistory.length > 0 && view.showEditHistory !== false) fields.edit_history = message.editHistory;
  return fields;
}

function displayRecipientUsers(users: readonly User[], view: MessageViewer): ApiDisplayRecipientUser[] {
  return [...users]
    .sort((a, b) => a.id - b.id)
    .map((user) => ({ id: user.id, email: visibleEmail(view.viewer, user, view.realmHost), full_name: user.fullName, is_mirror_dummy: false }));
}

/**
 * One client's copy. `senderEmailVisible`: whether this client was shown the sender's real
 * address; only then can it compute the Gravatar URL itself, so only then is avatar_url null.
 */
export function forClient(fields: MessageFields, format: ClientFormat, senderEmailVisible: boolean): ApiMessage {
  const { rendered_content, ...rest } = fields;
  const shaped: ApiMessage = {
    ...rest,
    content: format.applyMarkdown ? rendered_content : fields.content,
    content_type: format.applyMarkdown ? "text/html" : "text/x-markdown",
  };
  if (format.keepRenderedContent) shaped.rendered_content = rendered_content;
  if (format.clientGravatar && senderEmailVisible && isGravatarUrl(fields.avatar_url)) shaped.avatar_url = null;
  if (fields.type === "stream" && fields.subject === "" && !format.allowEmptyTopicName) shaped.subject = format.emptyTopicDisplayName;
  return shaped;
}

export const isGravatarUrl = (url: unknown) => typeof url === "string" && url.startsWith("https://secure.gravatar.com/avatar/");

/** THE message object for one viewer (GET /messages and similar), with their flags when given. */
export function messageToApi(parts: MessageParts, view: MessageView, flags?: string[]): ApiMessage {
  const shaped = forClient(messageFields(parts, view), view, canSeeDeliveryEmail(view.viewer, parts.sender));
  if (flags) shaped.flags = flags;
  return shaped;
}

/**
 * A user's stored flag bits and read state as the API's flag names. Group mentions are stored
 * as MENTIONED too; wildcard_mentioned is the older name clients still read for either wildcard.
 */
export function apiFlags(bits: number, read: boolean): string[] {
  const names: string[] = [];
  if (read) names.push("read");
  if (bits & Flag.STARRED) names.push("starred");
  if (bits & Flag.COLLAPSED) names.push("collapsed");
  if (bits & (Flag.MENTIONED | Flag.GROUP_MENTIONED)) names.push("mentioned");
  const channelWildcard = (bits & Flag.STREAM_WILDCARD_MENTIONED) !== 0;
  const topicWildcard = (bits & Flag.TOPIC_WILDCARD_MENTIONED) !== 0;
  if (channelWildcard || topicWildcard) names.push("wildcard_mentioned");
  if (channelWildcard) names.push("stream_wildcard_mentioned");
  if (topicWildcard) names.push("topic_wildcard_mentioned");
  if (bits & Flag.HAS_ALERT_WORD) names.push("has_alert_word");
  return names;
}
