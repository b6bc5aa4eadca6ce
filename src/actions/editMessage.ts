import { accessChannel, type ChannelViewer } from "../access/channels";
import { checkCanChangeChannel, checkCanChangeTopic, checkCanEditContent, checkWholeTopicWithinLimits } from "../access/messageEdits";
import { accessMessage, readableMessagesInTopic } from "../access/messages";
import type { Channel } from "../db/channels";
import type { Message } from "../db/messages";
import { getRealm } from "../db/realm";
import { read, write } from "../db/transaction";
import type { Reader, Tx } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { renderForSending } from "../messages/compose";
import { normalizeContent, normalizeTopic, RESOLVED_TOPIC_PREFIX } from "../messages/content";
import type { RealmSettings } from "../model/realmSettings";
import { type ContentChange, type EditPlan, type PropagateMode, applyEdit } from "./applyMessageEdit";
import { now } from "../model/clock";

/**
 * PATCH /messages/{id}: change a message's content, or move it (and, by propagate_mode, the
 * rest of its topic) to another topic and/or channel. This file decides what is asked and
 * whether it is allowed; applyMessageEdit.ts carries it out.
 */

export interface EditMessageInput {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

export function editMessage(user: User, messageId: number, input: EditMessageInput) {
  // Rendering is the slow part of a content edit; it happens before the write lock is taken.
  const content = input.content === undefined ? undefined : read((db) => prepareContent(db, user, messageId, input.content!));
  write((tx) => applyEdit(tx, planEdit(tx, user, messageId, input, content)));
  return { detached_uploads: [] };
}

function prepareContent(db: Reader, user: User, messageId: number, raw: string): ContentChange {
  accessMessage(db, user, messageId, { modifying: true });
  // Emptying a message leaves a visible trace, as in the reference, rather than an empty message.
  const content = normalizeContent(raw.trim() === "" ? "(deleted)" : raw);
  return { content, rendered: renderForSending(db, user, getRealm(db), content) };
}

/** Whether going from one topic name to the other only resolves or unresolves the topic. */
function resolutionChange(from: string, to: string): "resolved" | "unresolved" | null {
  const parse = (topic: string) => (topic.startsWith(RESOLVED_TOPIC_PREFIX) ? { resolved: true, bare: topic.slice(RESOLVED_TOPIC_PREFIX.length) } : { resolved: false, bare: topic });
  const [a, b] = [parse(from), parse(to)];
  if (a.bare !== b.bare || a.resolved === b.resolved) return null;
  return b.resolved ? "resolved" : "unresolved";
}

function newTopicOf(raw: string, settings: RealmSettings): string {
  const trimmed = raw.trim();
  if (trimmed === RESOLVED_TOPIC_PREFIX.trim() || trimmed === RESOLVED_TOPIC_PREFIX + settings.empty_topic_display_name) {
    throw badRequest("General chat cannot be marked as resolved");
  }
  return normalizeTopic(raw, settings);
}

function planEdit(tx: Tx, user: User, messageId: number, input: EditMessageInput, prepared: ContentChange | undefined): EditPlan {
  const realm = getRealm(tx);
  const editTime = now();
  const { message, channel, viewer } = accessMessage(tx, user, messageId, { modifying: true });
  if (!channel && input.streamId !== undefined) throw badRequest("Direct messages cannot be moved to channels.");
  if (!channel && input.topic !== undefined) throw badRequest("Direct messages cannot have topics.");

  // Values equal to what the message has are no change at all.
  const content = prepared && prepared.content !== message.content ? prepared : undefined;
  const topic = input.topic === undefined ? undefined : newTopicOf(input.topic, realm.settings);
  const newTopic = topic === message.topic ? undefined : topic;
  const newChannelId = input.streamId === message.channelId ? undefined : input.streamId;
  const moving = newTopic !== undefined || newChannelId !== undefined;
  if (!content && !moving) throw badRequest("Nothing to change");
  if (input.propagateMode !== "change_one" && !moving) throw badRequest("Invalid propagate_mode without topic edit");
  if (content && newChannelId !== undefined) throw badRequest("Cannot change message content while changing channel");

  if (content) checkCanEditContent(viewer, message, realm.settings, editTime);
  const resolution = newTopic !== undefined && newChannelId === undefined ? resolutionChange(message.topic, newTopic) : null;
  if (newTopic !== undefined) checkCanChangeTopic(viewer, message, realm.settings, editTime, resolution !== null);
  if (newChannelId !== undefined) checkCanChangeChannel(viewer, message, realm.settings, editTime);
  const toChannel = newChannelId === undefined ? channel : destination(tx, user, newChannelId);

  const moved = moving ? messagesToMove(tx, viewer, message, channel!, input.propagateMode) : [message];
  if (moving && input.propagateMode === "change_all") {
    checkWholeTopicWithinLimits(viewer, moved, realm.settings, { topic: newTopic !== undefined, channel: newChannelId !== undefined }, editTime);
  }
  return {
    realm,
    editor: user,
    viewer,
    editTime,
    target: message,
    fromChannel: channel,
    content,
    move: moving ? { toChannel: toChannel!, topic: newTopic, propagateMode: input.propagateMode, resolution, moved } : undefined,
    notify: { oldThread: input.notifyOldThread, newThread: input.notifyNewThread },
  };
}

/** The channel messages move to: one the mover may read and post in, not archived. */
function destination(tx: Tx, user: User, channelId: number): Channel {
  const { channel, viewer } = accessChannel(tx, user, channelId, "content");
  if (channel.isArchived) throw badRequest("Invalid channel ID");
  if (!viewer.groupIds.has(channel.canSendMessageGroup)) throw badRequest("You do not have permission to post in this channel.");
  return channel;
}

/**
 * The messages a move takes along, oldest first: the one, the rest of its topic from it on, or
 * the whole topic; of those, only what the mover may see (the reference's rule for channels
 * with protected history).
 */
function messagesToMove(tx: Tx, viewer: ChannelViewer, target: Message, channel: Channel, mode: PropagateMode): Message[] {
  if (mode === "change_one") return [target];
  return readableMessagesInTopic(tx, viewer, channel, target.topicKey, mode === "change_later" ? target.id : 0);
}
