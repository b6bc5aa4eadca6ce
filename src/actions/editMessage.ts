import { accessChannel } from "../access/channels";
import { checkCanChangeChannel, checkCanChangeTopic, checkCanEditContent, checkWholeTopicWithinLimits } from "../access/messageEdits";
import { accessMessage, readableMessagesInTopic, type TopicMessage } from "../access/messages";
import type { Channel } from "../db/channels";
import { type MessageRow, messageRowsByIds } from "../db/messages";
import { getRealm } from "../db/realm";
import { readInSlices, writeInSlices } from "../db/slices";
import { read, write } from "../db/transaction";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { renderForSending } from "../messages/compose";
import { normalizeContent, normalizeTopic, RESOLVED_TOPIC_PREFIX } from "../messages/content";
import type { RealmSettings } from "../model/realmSettings";
import { type ContentChange, type EditPlan, type PropagateMode, applyEdit } from "./messageEditWrites";
import { now } from "../model/clock";

/**
 * PATCH /messages/{id}: change a message's content, or move it (and, by propagate_mode, the
 * rest of its topic) to another topic and/or channel. This file decides what is asked and
 * whether it is allowed; messageEditWrites.ts carries it out.
 */

export interface EditMessageInput {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

/** Messages moved per step of a move of many (change_later, change_all): a few milliseconds each. */
const MOVE_STEP = 50;

export async function editMessage(user: User, messageId: number, input: EditMessageInput) {
  // Rendering is the slow part of a content edit; it happens before the write lock is taken.
  const content = input.content === undefined ? undefined : await read((db) => prepareContent(db, user, messageId, input.content!));
  const moving = input.topic !== undefined || input.streamId !== undefined;
  if (!moving || input.propagateMode === "change_one") await write(async (tx) => applyEdit(tx, await planEdit(tx, user, messageId, input, content)));
  else await moveMany(user, messageId, input, content);
  return { detached_uploads: [] };
}

/**
 * A move of part or all of a topic: everything is checked first, for every message, so that
 * a refusal changes nothing; then the messages move in slices (db/slices.ts), oldest first
 * (so the channels' first messages change once), each step planned and checked again as a
 * move of its own with its own events. The chosen
 * message goes last, with the notices: should the move stop half way, asking again moves
 * the rest, as the chosen message is still where it was.
 */
async function moveMany(user: User, messageId: number, input: EditMessageInput, content: ContentChange | undefined) {
  const whole = await wholeTopic(user, messageId, input, content);
  let done = false;
  await writeInSlices(async (tx, slice) => {
    while (!done && !slice.over) {
      const plan = await planEdit(tx, user, messageId, input, content, { step: MOVE_STEP, total: whole.length });
      await applyEdit(tx, plan);
      done = plan.move!.last;
    }
    return done || undefined;
  });
}

/**
 * The messages a move of many takes (the topic, or the rest of it from the chosen message on)
 * as the mover may read them, read in slices, and checked against the time limits once.
 */
async function wholeTopic(user: User, messageId: number, input: EditMessageInput, content: ContentChange | undefined): Promise<TopicMessage[]> {
  const whole: TopicMessage[] = [];
  let next: number | undefined;
  return readInSlices(async (db, slice) => {
    const plan = await planEdit(db, user, messageId, input, content);
    const { target, viewer, fromChannel, realm, editTime, move } = plan;
    next ??= input.propagateMode === "change_later" ? target.id : 0;
    while (!slice.over) {
      const part = await readableMessagesInTopic(db, viewer, fromChannel!, target.topicKey, { fromId: next, limit: TOPIC_STEP });
      whole.push(...part);
      if (part.length < TOPIC_STEP) {
        if (input.propagateMode === "change_all") checkWholeTopicWithinLimits(viewer, whole, realm.settings, { topic: move!.topic !== undefined, channel: move!.toChannel.id !== fromChannel!.id }, editTime);
        return whole;
      }
      next = part[part.length - 1].id + 1;
    }
    return undefined;
  });
}

/** Messages of a topic read per step when looking at a whole topic. */
const TOPIC_STEP = 1000;

async function prepareContent(db: Reader, user: User, messageId: number, raw: string): Promise<ContentChange> {
  await accessMessage(db, user, messageId, { modifying: true });
  // Emptying a message leaves a visible trace, as in the reference, rather than an empty message.
  const content = normalizeContent(raw.trim() === "" ? "(deleted)" : raw);
  return { content, rendered: await renderForSending(db, user, await getRealm(db), content) };
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

/**
 * What the edit changes, checked: for one message, or with `batch`, the next step of a move of
 * many: that many of the messages still to move, oldest first, or once fewer are left, all of
 * them with the chosen message (`last`). wholeTopic checks the whole move first.
 */
async function planEdit(tx: Reader, user: User, messageId: number, input: EditMessageInput, prepared: ContentChange | undefined, batch?: { step: number; total: number }): Promise<EditPlan> {
  const realm = await getRealm(tx);
  const editTime = now();
  const { message, channel, viewer } = await accessMessage(tx, user, messageId, { modifying: true });
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
  const toChannel = newChannelId === undefined ? channel : await destination(tx, user, newChannelId);

  let moved: MessageRow[] = [message];
  let count = 1;
  if (moving && input.propagateMode !== "change_one") {
    const fromId = input.propagateMode === "change_later" ? message.id : 0;
    if (batch) {
      // Renamed in the same channel to a spelling of the same topic, moved messages still match it.
      const exceptTopic = newChannelId === undefined ? newTopic : undefined;
      const next = await readableMessagesInTopic(tx, viewer, channel!, message.topicKey, { fromId, except: message.id, exceptTopic, limit: batch.step });
      // The chosen message comes along once the rest fits in this step (a small move is one step).
      moved = await messageRowsByIds(tx, [...next.map((one) => one.id), ...(next.length < batch.step ? [message.id] : [])]);
      count = batch.total;
    }
  }
  const last = moved.some((one) => one.id === message.id);
  return {
    realm,
    editor: user,
    viewer,
    editTime,
    target: message,
    fromChannel: channel,
    content: last ? content : undefined,
    move: moving ? { toChannel: toChannel!, topic: newTopic, propagateMode: input.propagateMode, resolution, moved, count, last } : undefined,
    notify: { oldThread: input.notifyOldThread, newThread: input.notifyNewThread },
  };
}

/** The channel messages move to: one the mover may read and post in, not archived. */
async function destination(tx: Reader, user: User, channelId: number): Promise<Channel> {
  const { channel, viewer } = await accessChannel(tx, user, channelId, "content");
  if (channel.isArchived) throw badRequest("Invalid channel ID");
  if (!viewer.groupIds.has(channel.canSendMessageGroup)) throw badRequest("You do not have permission to post in this channel.");
  return channel;
}
