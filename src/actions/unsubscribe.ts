import { canRemoveSubscribers, channelViewer } from "../access/channels";
import { findChannelsByNames } from "../db/channels";
import { write } from "../db/transaction";
import type { User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { resolvePrincipals } from "./subscribe";
import { removeSubscriptions } from "./subscriptions";

/** The people one may always unsubscribe: oneself and one's own bots. */
const controls = (actor: User, target: User) => target.id === actor.id || (target.isBot && target.botOwnerId === actor.id);

/**
 * DELETE /users/me/subscriptions: the caller leaves channels, or unsubscribes the principals.
 * Removing other people needs can_remove_subscribers_group (or administering the channel) in
 * every named channel.
 */
export function unsubscribeUsers(actor: User, names: string[], principals: number[] | string[] | undefined) {
  return write((tx) => {
    const targets = resolvePrincipals(tx, actor, principals);
    const trimmed = [...new Map(names.map((name) => [name.trim().toLowerCase(), name.trim()])).values()];
    const found = new Map(findChannelsByNames(tx, trimmed).map((channel) => [channel.nameKey, channel]));
    const missing = trimmed.find((name) => !found.has(name.toLowerCase()));
    if (missing !== undefined) throw new ApiError("STREAM_DOES_NOT_EXIST", `Channel '${missing}' does not exist`, { stream: missing });
    const channels = trimmed.map((name) => found.get(name.toLowerCase())!);
    if (targets.some((target) => !controls(actor, target))) {
      const viewer = channelViewer(tx, actor);
      if (!channels.every((channel) => canRemoveSubscribers(viewer, channel))) throw badRequest("Insufficient permission");
    }
    const { changed, unchanged } = removeSubscriptions(tx, channels, targets);
    return { removed: changed.map(({ channel }) => channel.name), not_removed: unchanged.map(({ channel }) => channel.name) };
  });
}
