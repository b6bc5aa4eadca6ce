import { channelViewer, hasContentAccess } from "../access/channels";
import { findChannelById, findSubscription, updateSubscription } from "../db/channels";
import { write } from "../db/transaction";
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

/**
 * POST /users/me/subscriptions/properties: the caller's personal settings for channels they
 * are subscribed to. All changes apply together or none does.
 */
export function updateSubscriptionProperties(actor: User, changes: SubscriptionPropertyChange[]) {
  write((tx) => {
    const viewer = channelViewer(tx, actor);
    for (const change of changes) {
      const stored = storedChange(change);
      const channel = findChannelById(tx, change.stream_id);
      if (!channel || !hasContentAccess(viewer, channel)) throw badRequest("Invalid channel ID");
      if (!findSubscription(tx, actor.id, channel.id)?.active) throw badRequest(`Not subscribed to channel ID ${channel.id}`);
      updateSubscription(tx, actor.id, channel.id, stored);
      if ("isMuted" in stored) {
        // Both spellings, so clients that only know in_home_view stay correct.
        tx.emit({ type: "subscription", op: "update", stream_id: channel.id, property: "in_home_view", value: !stored.isMuted }, [actor.id]);
        tx.emit({ type: "subscription", op: "update", stream_id: channel.id, property: "is_muted", value: stored.isMuted! }, [actor.id]);
      } else {
        tx.emit({ type: "subscription", op: "update", stream_id: channel.id, property: change.property, value: change.value }, [actor.id]);
      }
    }
  });
}
