import { accessibleMessages, lazyChannelViewer } from "../access/messageReading";
import type { EditHistoryEntry, Message } from "../db/messages";
import { getRealm } from "../db/realm";
import { Slice, workingInSlices, yieldToOthers } from "../db/slices";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { htmlDiff } from "../render/htmlDiff";

/**
 * GET /messages/{message_id}/history (reference: get-message-history): the message as it was
 * after each change, oldest first, the original first of all. Built from the stored
 * edit_history (newest first, holding only what each change replaced) by walking back from
 * the message as it is now, as the reference does.
 *
 * Under the organization's message_edit_history_visibility_policy, "none" refuses and "moves"
 * shows only the moves: snapshots of content-only edits are left out, and no snapshot shows
 * an earlier content (each carries the current one) or the prev_* content fields.
 */

export interface EditSnapshot {
  topic: string;
  prev_topic?: string;
  stream?: number;
  prev_stream?: number;
  content: string;
  rendered_content: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  user_id: number | null;
  timestamp: number;
}

export const EDIT_HISTORY_DISABLED = "Message edit history is disabled in this organization";

export async function getMessageEditHistory(viewer: User, messageId: number, options: { allowEmptyTopicName: boolean }): Promise<EditSnapshot[]> {
  const { settings, message } = await read(async (db) => {
    const settings = (await getRealm(db)).settings;
    if (settings.message_edit_history_visibility_policy === "none") throw badRequest(EDIT_HISTORY_DISABLED);
    const [message] = await accessibleMessages(db, await lazyChannelViewer(db, viewer), [messageId]);
    return { settings, message };
  });
  let snapshots = await workingInSlices(() => snapshotsOf(message));
  if (settings.message_edit_history_visibility_policy === "moves") snapshots = movesOnly(snapshots, message);
  if (message.channelId !== null && !options.allowEmptyTopicName) {
    const shown = (topic: string) => (topic === "" ? settings.empty_topic_display_name : topic);
    for (const snapshot of snapshots) {
      snapshot.topic = shown(snapshot.topic);
      if (snapshot.prev_topic !== undefined) snapshot.prev_topic = shown(snapshot.prev_topic);
    }
  }
  return snapshots;
}

/**
 * Every snapshot, oldest first: the original, then one per stored edit. Diffing each version
 * against the next takes a while for a message edited hundreds of times, so the event loop
 * serves others between slices of it (db/slices.ts).
 */
async function snapshotsOf(message: Message): Promise<EditSnapshot[]> {
  let slice = new Slice();
  // The message after the edit being looked at, walking from the newest edit back.
  let content = message.content;
  let renderedContent = message.renderedContent;
  let topic = message.topic;
  const newestFirst: EditSnapshot[] = [];
  for (const entry of message.editHistory ?? []) {
    const snapshot: EditSnapshot = { topic, content, rendered_content: renderedContent, user_id: entry.user_id, timestamp: entry.timestamp };
    if (entry.prev_topic !== undefined) {
      snapshot.prev_topic = entry.prev_topic;
      topic = entry.prev_topic;
    }
    if (entry.prev_stream !== undefined && entry.stream !== undefined) {
      snapshot.stream = entry.stream;
      snapshot.prev_stream = entry.prev_stream;
    }
    if (entry.prev_content !== undefined && entry.prev_rendered_content !== undefined) {
      snapshot.prev_content = entry.prev_content;
      snapshot.prev_rendered_content = entry.prev_rendered_content;
      snapshot.content_html_diff = htmlDiff(entry.prev_rendered_content, renderedContent);
      content = entry.prev_content;
      renderedContent = entry.prev_rendered_content;
    }
    newestFirst.push(snapshot);
    if (slice.over) {
      await yieldToOthers();
      slice = new Slice();
    }
  }
  newestFirst.push({ topic, content, rendered_content: renderedContent, user_id: message.senderId, timestamp: message.dateSent });
  return newestFirst.reverse();
}

const isMove = (entry: Pick<EditHistoryEntry, "prev_topic" | "prev_stream">) => entry.prev_topic !== undefined || entry.prev_stream !== undefined;

function movesOnly(snapshots: EditSnapshot[], message: Message): EditSnapshot[] {
  const [original, ...edits] = snapshots;
  return [original, ...edits.filter(isMove)].map(({ prev_content, prev_rendered_content, content_html_diff, ...rest }) => ({
    ...rest,
    content: message.content,
    rendered_content: message.renderedContent,
  }));
}
