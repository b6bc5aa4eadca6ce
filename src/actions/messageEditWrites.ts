import type { ChannelViewer } from "../access/channels";
import { messageAudience, readableMessagesInTopic } from "../access/messages";
import { activeSubscriberIds, type Channel } from "../db/channels";
import { realmLinkifiers } from "../db/linkifiers";
import { channelRecipient, type EditHistoryEntry, Flag, flagRowsOfMessage, type MessageRow, type NewMessage, rewriteMessage } from "../db/messages";
import { storeBitsOfUsers } from "../db/messageState";
import type { Realm } from "../db/realm";
import type { Tx } from "../db/types";
import { findUserById, type User } from "../db/users";
import { topicKeyOf } from "../db/userTopics";
import type { UpdateMessageEvent } from "../events/kinds/messageEdits";
import { addAlertWordBits } from "../messages/alertWordFlags";
import { applyMentions, type MentionScope } from "../messages/mentionFlags";
import { announceMove, announceResolution } from "./moveNotices";
import { carryReadState, flagsOnMessage } from "./moveReadState";
import type { RenderResult } from "../render/markdown";
import { topicLinks } from "../render/topicLinks";
import { refreshFirstMessageId } from "./firstMessageId";
import { relinkEditedMessage } from "./attachments";

/** Carrying out an edit editMessage.ts planned and checked: rows, flags, events, notices. */

export type PropagateMode = "change_one" | "change_later" | "change_all";

export interface ContentChange {
  content: string;
  rendered: RenderResult;
}

export interface MovePlan {
  toChannel: Channel;
  /** The new topic; undefined when only the channel changes. */
  topic: string | undefined;
  propagateMode: PropagateMode;
  /** Set when the edit only resolves or unresolves the topic, which is not counted as a move. */
  resolution: "resolved" | "unresolved" | null;
  /** The messages that move now, oldest first: all, or a step of a move of many (the target in the last). */
  moved: MessageRow[];
  /** How many messages the whole move takes, for the notices. */
  count: number;
  /** Whether this is the whole move or its last step: the notices follow it. */
  last: boolean;
}

export interface EditPlan {
  realm: Realm;
  editor: User;
  viewer: ChannelViewer;
  editTime: number;
  target: MessageRow;
  /** The target's channel; undefined for a direct message. */
  fromChannel: Channel | undefined;
  content: ContentChange | undefined;
  move: MovePlan | undefined;
  notify: { oldThread: boolean; newThread: boolean };
}

/** The bits a message's content decides: mentions and alert words. */
const CONTENT_BITS = Flag.MENTIONED | Flag.STREAM_WILDCARD_MENTIONED | Flag.TOPIC_WILDCARD_MENTIONED | Flag.GROUP_MENTIONED | Flag.HAS_ALERT_WORD;

export async function applyEdit(tx: Tx, plan: EditPlan) {
  const { target, fromChannel, move, editor } = plan;
  const affected = move?.moved ?? [target];
  const before = await messageAudience(tx, fromChannel, affected);
  const channelMove = move && move.toChannel.id !== fromChannel!.id ? move : undefined;
  const toChannel = move?.toChannel ?? fromChannel;
  let after = before;
  let losing: number[] = [];
  let toRecipientId = target.recipientId;
  if (channelMove) {
    toRecipientId = (await channelRecipient(tx, channelMove.toChannel.id)).id;
    after = await messageAudience(tx, channelMove.toChannel, affected.map((message) => ({ ...message, channelId: channelMove.toChannel.id })));
    const gaining = after.filter((id) => !before.includes(id));
    losing = before.filter((id) => !after.includes(id));
    await carryReadState(tx, affected, target.recipientId, toRecipientId, { keeping: after.filter((id) => before.includes(id)), gaining, losing });
  }
  if (plan.content) await updateMentionFlags(tx, plan, plan.content, before);
  if (plan.content) plan.content.rendered = { ...plan.content.rendered, hasAttachment: await relinkAttachments(tx, plan, plan.content) };
  await rewriteMessages(tx, plan, affected, toRecipientId);

  const recipients = [...new Set([...after, editor.id])];
  const canBeUnread = new Set(toChannel ? ((await activeSubscriberIds(tx, [toChannel.id])).get(toChannel.id) ?? []) : before);
  // A step of a move that leaves the chosen message for later is told as a move of its own messages.
  const shown = move && !move.last ? affected[0] : target;
  const flagsByUser = await flagsOnMessage(tx, { id: shown.id, recipientId: toRecipientId }, recipients, canBeUnread);
  tx.emit(await updateEvent(tx, plan, affected, shown), recipients, { flagsByUser });
  const leavers = losing.filter((id) => id !== editor.id);
  if (leavers.length > 0) {
    const ids = affected.map((message) => message.id);
    tx.emit({ type: "delete_message", message_ids: ids, message_type: "stream", stream_id: fromChannel!.id, topic: target.topic }, leavers);
  }
  if (channelMove) await refreshFirstMessageIds(tx, fromChannel!, channelMove.toChannel, affected);
  if (move?.last) await announce(tx, plan, move);
}

/** Mentions and alert words follow the content: their flags are recomputed for everyone the message reached. */
async function updateMentionFlags(tx: Tx, plan: EditPlan, content: ContentChange, audience: number[]) {
  const { target, fromChannel, realm, editor } = plan;
  const recipientIds = [...new Set([...audience, target.senderId])];
  const scope: MentionScope = fromChannel ? { kind: "channel", channel: fromChannel, subscriberIds: (await activeSubscriberIds(tx, [fromChannel.id])).get(fromChannel.id) ?? [] } : { kind: "direct" };
  const bits = await applyMentions(tx, editor, realm, content.rendered, scope, target.topic, recipientIds);
  await addAlertWordBits(tx, bits, content.content, target.senderId, recipientIds);
  const stored = new Map((await flagRowsOfMessage(tx, target.id)).map((row) => [row.userId, row.flags]));
  const changes = [...new Set([...stored.keys(), ...bits.keys()])].flatMap((userId) => {
    const old = stored.get(userId) ?? 0;
    const next = (old & ~CONTENT_BITS) | (bits.get(userId) ?? 0);
    return next === old ? [] : [{ userId, message: target, bits: next }];
  });
  await storeBitsOfUsers(tx, changes);
}

/** The uploads the new content names are linked, those it no longer names unlinked; answers has_attachment. */
async function relinkAttachments(tx: Tx, plan: EditPlan, content: ContentChange): Promise<boolean> {
  const { target, realm } = plan;
  if (content.rendered.attachmentPathIds.length === 0 && !target.hasAttachment) return false;
  // Uploads are claimed by the message's sender, whoever edits it (as in the reference).
  const sender = target.senderId === plan.editor.id ? plan.editor : (await findUserById(tx, target.senderId))!;
  return await relinkEditedMessage(tx, target, sender, realm, content.rendered.attachmentPathIds);
}

/** Each affected row gets its changes and an edit_history entry (newest first, spec 2.3). */
async function rewriteMessages(tx: Tx, plan: EditPlan, affected: MessageRow[], toRecipientId: number) {
  const { target, content, move, editor, editTime, fromChannel } = plan;
  for (const message of affected) {
    const entry: EditHistoryEntry = { user_id: editor.id, timestamp: editTime };
    const changes: Partial<NewMessage> = {};
    if (content && message.id === target.id) {
      entry.prev_content = message.content;
      entry.prev_rendered_content = message.renderedContent;
      const { rendered } = content;
      Object.assign(changes, { content: content.content, renderedContent: rendered.html, isMeMessage: rendered.isMeMessage, hasLink: rendered.hasLink, hasImage: rendered.hasImage, hasAttachment: rendered.hasAttachment, lastEditTime: editTime });
    }
    if (move && move.toChannel.id !== fromChannel!.id) {
      Object.assign(entry, { prev_stream: fromChannel!.id, stream: move.toChannel.id });
      Object.assign(changes, { channelId: move.toChannel.id, recipientId: toRecipientId });
    }
    if (move?.topic !== undefined) {
      Object.assign(entry, { prev_topic: message.topic, topic: move.topic });
      Object.assign(changes, { topic: move.topic, topicKey: topicKeyOf(move.topic) });
    }
    // Resolving or unresolving a topic is not a move (spec 2.3 last_moved_timestamp).
    if (move && move.resolution === null) changes.lastMovedTime = editTime;
    await rewriteMessage(tx, message.id, changes, entry);
  }
}

async function updateEvent(tx: Tx, plan: EditPlan, affected: MessageRow[], shown: MessageRow): Promise<UpdateMessageEvent> {
  const { target, fromChannel, move, content } = plan;
  const event: UpdateMessageEvent = {
    type: "update_message",
    user_id: plan.editor.id,
    rendering_only: false,
    message_id: shown.id,
    message_ids: affected.map((message) => message.id).sort((a, b) => a - b),
    flags: [],
    edit_timestamp: plan.editTime,
  };
  if (fromChannel) Object.assign(event, { stream_name: fromChannel.name, stream_id: fromChannel.id });
  if (move) Object.assign(event, { propagate_mode: move.propagateMode, orig_subject: target.topic });
  if (move && move.toChannel.id !== fromChannel!.id) event.new_stream_id = move.toChannel.id;
  if (move?.topic !== undefined) Object.assign(event, { subject: move.topic, topic_links: topicLinks(move.topic, await realmLinkifiers(tx)) });
  if (content) {
    Object.assign(event, {
      orig_content: target.content,
      orig_rendered_content: target.renderedContent,
      content: content.content,
      rendered_content: content.rendered.html,
      is_me_message: content.rendered.isMeMessage,
    });
  }
  return event;
}

async function refreshFirstMessageIds(tx: Tx, from: Channel, to: Channel, moved: MessageRow[]) {
  const ids = moved.map((message) => message.id);
  if (from.firstMessageId !== null && ids.includes(from.firstMessageId)) await refreshFirstMessageId(tx, from);
  if (to.firstMessageId === null || Math.min(...ids) < to.firstMessageId) await refreshFirstMessageId(tx, to);
}

async function announce(tx: Tx, plan: EditPlan, move: MovePlan) {
  const { editor, target, fromChannel } = plan;
  const topic = move.topic ?? target.topic;
  if (move.resolution) {
    await announceResolution(tx, editor, move.toChannel, topic, move.resolution === "resolved");
    return;
  }
  if (!plan.notify.oldThread && !plan.notify.newThread) return;
  const wholeTopic = move.propagateMode === "change_all" || (await readableMessagesInTopic(tx, plan.viewer, fromChannel!, target.topicKey, { limit: 1 })).length === 0;
  const thread = { from: { channel: fromChannel!, topic: target.topic }, to: { channel: move.toChannel, topic }, count: move.count, target, wholeTopic };
  await announceMove(tx, plan.realm, editor, thread, plan.notify);
}
