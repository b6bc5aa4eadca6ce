import { starredIds } from "../../db/messageState";
import type { Reader } from "../../db/types";
import { unreadMsgs } from "./unread";
import type { UserStateContext } from "./context";

/** unread_msgs, kept up to date by message and update_message_flags events; built in slices of its own. */
export async function unreadMsgsState({ viewer, spec, realm }: UserStateContext) {
  const emptyTopicName = spec.capabilities.empty_topic_name ? null : realm.settings.empty_topic_display_name;
  return { unread_msgs: await unreadMsgs(viewer.id, emptyTopicName) };
}

/** starred_messages, kept up to date by update_message_flags events for the starred flag. */
export async function starredMessagesState(db: Reader, { viewer }: UserStateContext) {
  return { starred_messages: await starredIds(db, viewer.id) };
}
