import { channelViewer, hasContentAccess } from "../access/channels";
import { findChannelById, findSubscription, updateSubscription } from "../db/channels";
import { writeInSlices } from "../db/slices";
import { read } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { NOTIFICATION_PROPERTIES, type NotificationProperty, isHexColor } from "../model/channelSettings";

export interface SubscriptionPropertyChange {
  stream_id: number;
  property: string;
  value: boolean | string;
}

const NOTIFICATION_COLUMNS = {
  desktop_notifications: "desktopNotifications",
  audible_notifications: "audibleNotifications",
  push_notifications: "pushNotifications",
  email_notifications: "emailNotifications",
  wildcard_mentions_notify: "wildcardMentionsNotify",
} as const satisfies Record<NotificationProperty, string>;

/** Which column a property writes and the value stored, or a BAD_REQUEST saying what is wrong. */
function storedChange(change: SubscriptionPropertyChange) {
  const { property, value } = change;
  if (property === "color") {
    if (typeof value !== "string" || !isHexColor(value)) throw badRequest("color is not a valid hex color code");
    return { color: value };
  }
  const known = property === "is_muted" || property === "in_home_view" || property === "pin_to_top" || (NOTIFICATION_PROPERTIES as readonly string[]).includes(property);
  if (!known) throw badRequest(`Unknown subscription property: ${property}`);
  if (typeof value !== "boolean") throw badRequest(`${property} is not a boolean`);
  if (property === "is_muted") return { isMuted: value };
  if (property === "in_home_view") return { isMuted: !value };
  if (property === "pin_to_top") return { pinToTop: value };
  return { [NOTIFICATION_COLUMNS[property as NotificationProperty]]: value };
}

/** Changes applied per step: a few milliseconds. */
const PROPERTY_STEP = 100;

/**
 * POST /users/me/subscriptions/properties: the caller's personal settings for channels they
 * are subscribed to. Every change is checked before the first applies, so a refusal changes
 * nothing. A list may be long and say the same thing many times: only the last change of each
 * setting of each channel counts, and those apply in slices (db/slices.ts).
 */
export async function updateSubscriptionProperties(actor: User, changes: SubscriptionPropertyChange[]) {
  const latest = new Map<string, SubscriptionPropertyChange>();
  await read(async (db) => {
    const viewer = await channelViewer(db, actor);
    const checked = new Set<number>();
    for (const change of changes) {
      const stored = storedChange(change);
      if (!checked.has(change.stream_id)) {
        const channel = await findChannelById(db, change.stream_id);
        if (!channel || !hasContentAccess(viewer, channel)) throw badRequest("Invalid channel ID");
        if (!(await findSubscription(db, actor.id, channel.id))?.active) throw badRequest(`Not subscribed to channel ID ${channel.id}`);
        checked.add(change.stream_id);
      }
      const key = `${change.stream_id}:${Object.keys(stored)[0]}`;
      latest.delete(key);
      latest.set(key, change);
    }
  });
  const remaining = [...latest.values()];
  let next = 0;
  await writeInSlices(async (tx, slice) => {
    while (next < remaining.length && !slice.over) {
      for (const change of remaining.slice(next, next + PROPERTY_STEP)) await applyChange(tx, actor, change);
      next += PROPERTY_STEP;
    }
    return next >= remaining.length || undefined;
  });
}

async function applyChange(tx: Tx, actor: User, change: SubscriptionPropertyChange) {
  const stored = storedChange(change);
  await updateSubscription(tx, actor.id, change.stream_id, stored);
  if ("isMuted" in stored) {
    // Both spellings, so clients that only know in_home_view stay correct.
    tx.emit({ type: "subscription", op: "update", stream_id: change.stream_id, property: "in_home_view", value: !stored.isMuted }, [actor.id]);
    tx.emit({ type: "subscription", op: "update", stream_id: change.stream_id, property: "is_muted", value: stored.isMuted! }, [actor.id]);
  } else {
    tx.emit({ type: "subscription", op: "update", stream_id: change.stream_id, property: change.property, value: change.value }, [actor.id]);
  }
}
