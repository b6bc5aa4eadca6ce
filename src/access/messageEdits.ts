import type { Message, MessageRow } from "../db/messages";
import type { RealmSettings } from "../model/realmSettings";
import { ApiError, badRequest } from "../http/errors";
import { isModerator } from "../model/roles";
import type { ChannelViewer } from "./channels";
import { holdsPermission } from "./groupSettings";

/**
 * Who may change a message (the reference's PATCH /messages/{id} rules): its content only its
 * sender, while the organization allows editing and within message_content_edit_limit_seconds;
 * its topic members of can_move_messages_between_topics_group (resolving a topic: of
 * can_resolve_topics_group); its channel members of can_move_messages_between_channels_group.
 * Moves are time-limited for everyone below moderator.
 */

/** Grace for the request's travel time, as the reference allows beyond each limit. */
const LIMIT_BUFFER_SECONDS = 20;

/** Rules of settings that may include guests (role:everyone); moving between channels may not. */
const EVERYONE_ALLOWED = { allowInternet: false, allowNobody: true, allowEveryone: true };

const tooOld = (message: Pick<Message, "dateSent">, limit: number | null, now: number) => limit !== null && now - message.dateSent > limit + LIMIT_BUFFER_SECONDS;

export function checkCanEditContent(viewer: ChannelViewer, message: MessageRow, settings: RealmSettings, now: number) {
  if (!settings.allow_message_editing) throw badRequest("Your organization has turned off message editing");
  if (message.senderId !== viewer.user.id) throw badRequest("You don't have permission to edit this message");
  if (tooOld(message, settings.message_content_edit_limit_seconds, now)) throw badRequest("The time limit for editing this message has passed");
}

export function checkCanChangeTopic(viewer: ChannelViewer, message: MessageRow, settings: RealmSettings, now: number, resolving: boolean) {
  const { user, groupIds } = viewer;
  if (resolving) {
    if (!holdsPermission(user, settings.can_resolve_topics_group, EVERYONE_ALLOWED, groupIds)) throw badRequest("You don't have permission to resolve topics.");
    return;
  }
  if (!holdsPermission(user, settings.can_move_messages_between_topics_group, EVERYONE_ALLOWED, groupIds)) throw badRequest("You don't have permission to edit this message");
  if (!isModerator(user.role) && tooOld(message, settings.move_messages_within_stream_limit_seconds, now)) {
    throw badRequest("The time limit for editing this message's topic has passed.");
  }
}

export function checkCanChangeChannel(viewer: ChannelViewer, message: MessageRow, settings: RealmSettings, now: number) {
  const { user, groupIds } = viewer;
  if (!holdsPermission(user, settings.can_move_messages_between_channels_group, { ...EVERYONE_ALLOWED, allowEveryone: false }, groupIds)) {
    throw badRequest("You don't have permission to move this message");
  }
  if (!isModerator(user.role) && tooOld(message, settings.move_messages_between_streams_limit_seconds, now)) {
    throw badRequest("The time limit for editing this message's channel has passed");
  }
}

/**
 * Moving a whole topic needs every message in it to be within the time limits that apply
 * (the stricter when both topic and channel change). Otherwise the client learns how much of
 * the topic it could move, to offer moving just that part (change_later from the first one).
 */
export function checkWholeTopicWithinLimits(
  viewer: ChannelViewer,
  topicMessages: Array<Pick<Message, "id" | "dateSent">>,
  settings: RealmSettings,
  change: { topic: boolean; channel: boolean },
  now: number,
) {
  if (isModerator(viewer.user.role)) return;
  const limits = [
    change.topic ? settings.move_messages_within_stream_limit_seconds : null,
    change.channel ? settings.move_messages_between_streams_limit_seconds : null,
  ].filter((limit): limit is number => limit !== null);
  if (limits.length === 0) return;
  const limit = Math.min(...limits);
  const allowed = topicMessages.filter((message) => !tooOld(message, limit, now)).sort((a, b) => a.id - b.id);
  if (allowed.length === topicMessages.length) return;
  throw new ApiError("MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", `You only have permission to move the ${allowed.length}/${topicMessages.length} most recent messages in this topic.`, {
    first_message_id_allowed_to_move: allowed[0]?.id ?? null,
    total_messages_in_topic: topicMessages.length,
    total_messages_allowed_to_move: allowed.length,
  });
}
