import { read } from "../db/transaction";
import type { User } from "../db/users";
import { webPushSubscriptionsOf } from "../db/webPushSubscriptions";

/** GET /users/me/web_push_subscriptions: the user's devices, for the settings page's list. */
export async function listWebPushSubscriptions(user: User) {
  const rows = await read((db) => webPushSubscriptionsOf(db, user.id));
  return rows.map((row) => ({ id: row.id, endpoint: row.endpoint, created_at: row.createdAt, last_delivered_at: row.lastDeliveredAt }));
}
