import { canRemoveSubscribers, channelViewer } from "../access/channels";
import { findChannelsByNames } from "../db/channels";
import { writeInSlices } from "../db/slices";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { resolvePrincipals } from "./subscribeUsers";
import { removeSubscriptions } from "./subscriptionChanges";

/** The people one may always unsubscribe: oneself and one's own bots. */
const controls = (actor: User, target: User) => target.id === actor.id || (target.isBot && target.botOwnerId === actor.id);

/** Subscriptions ended per step: each marks its channels read for its people, a few milliseconds. */
const PAIRS_PER_STEP = 100;

/**
 * DELETE /users/me/subscriptions: the caller leaves channels, or unsubscribes the principals.
 * Removing other people needs can_remove_subscribers_group (or administering the channel) in
 * every named channel. All is checked first, so a refusal changes nothing; then people leave
 * a few at a time, in slices (db/slices.ts): a thousand people leaving busy channels is a
 * thousand channels' worth of messages to mark read.
 */
export async function unsubscribeUsers(actor: User, names: string[], principals: number[] | string[] | undefined) {
  const { channels, targets } = await read(async (db) => {
    const targets = await resolvePrincipals(db, actor, principals);
    const trimmed = [...new Map(names.map((name) => [name.trim().toLowerCase(), name.trim()])).values()];
    const found = new Map((await findChannelsByNames(db, trimmed)).map((channel) => [channel.nameKey, channel]));
    const missing = trimmed.find((name) => !found.has(name.toLowerCase()));
    if (missing !== undefined) throw new ApiError("STREAM_DOES_NOT_EXIST", `Channel '${missing}' does not exist`, { stream: missing });
    const channels = trimmed.map((name) => found.get(name.toLowerCase())!);
    if (targets.some((target) => !controls(actor, target))) {
      const viewer = await channelViewer(db, actor);
      if (!channels.every((channel) => canRemoveSubscribers(viewer, channel))) throw badRequest("Insufficient permission");
    }
    return { channels, targets };
  });
  const result = { removed: [] as string[], not_removed: [] as string[] };
  const perStep = Math.max(1, Math.floor(PAIRS_PER_STEP / channels.length));
  let next = 0;
  await writeInSlices(async (tx, slice) => {
    while (next < targets.length && !slice.over) {
      const { changed, unchanged } = await removeSubscriptions(tx, channels, targets.slice(next, next + perStep));
      result.removed.push(...changed.map(({ channel }) => channel.name));
      result.not_removed.push(...unchanged.map(({ channel }) => channel.name));
      next += perStep;
    }
    return next >= targets.length || undefined;
  });
  return result;
}
