import { findGroupById, isUserInGroup } from "../db/userGroups";
import type { Realm } from "../db/realm";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { SystemGroup } from "../model/roles";

/**
 * Which mentions a sender may make: wildcards in big channels and topics need
 * can_mention_many_users_group; a group mention needs the group's can_mention_group
 * (reference: check_user_group_mention_allowed and the wildcard checks).
 */

/** Above this many subscribers (or topic participants) a wildcard mention needs permission. */
export const WILDCARD_MENTION_THRESHOLD = 15;

/** Throws the spec's wildcard error when a wildcard would reach too many for this sender. */
export async function checkWildcardMentionAllowed(db: Reader, sender: User, realm: Realm, wildcard: "channel" | "topic", reached: number) {
  if (reached <= WILDCARD_MENTION_THRESHOLD || await isUserInGroup(db, sender.id, realm.settings.can_mention_many_users_group)) return;
  if (wildcard === "channel") throw new ApiError("STREAM_WILDCARD_MENTION_NOT_ALLOWED", "You do not have permission to use channel wildcard mentions in this channel.");
  throw new ApiError("TOPIC_WILDCARD_MENTION_NOT_ALLOWED", "You do not have permission to use topic wildcard mentions in this topic.");
}

export async function checkGroupMentionAllowed(db: Reader, sender: User, groupId: number) {
  const group = await findGroupById(db, groupId);
  if (!group || group.canMentionGroup === null) return;
  const mentioners = await findGroupById(db, group.canMentionGroup);
  if (mentioners?.isSystemGroup && mentioners.name === SystemGroup.EVERYONE) return;
  // The notification bot speaks for no one: it may mention only groups everyone may.
  if (sender.isSystemBot || !(await isUserInGroup(db, sender.id, group.canMentionGroup))) {
    throw badRequest(`You are not allowed to mention user group '${group.name}'.`);
  }
}
