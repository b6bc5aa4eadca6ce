import { and, eq } from "drizzle-orm";
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { Tx } from "./types";
import { users } from "./users";

export type PushDeviceKind = "apns" | "fcm";

/** Devices registered for push notifications (spec 4.14). Stored only: nothing is pushed yet. */
export const pushDevices = sqliteTable(
  "push_devices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind").$type<PushDeviceKind>().notNull(),
    token: text("token").notNull(),
    /** The iOS app the APNs token belongs to; null for FCM. */
    appId: text("app_id"),
    lastUpdated: integer("last_updated").notNull(),
  },
  // A token names one device, which one account at a time is signed in on.
  (table) => [uniqueIndex("push_devices_kind_token").on(table.kind, table.token)],
);

export type PushDevice = typeof pushDevices.$inferSelect;

/** Registers the token for this user, taking it over from whoever had it (a device whose previous user never logged out). */
export async function savePushDevice(tx: Tx, values: { userId: number; kind: PushDeviceKind; token: string; appId: string | null; lastUpdated: number }) {
  tx.insert(pushDevices)
    .values(values)
    .onConflictDoUpdate({ target: [pushDevices.kind, pushDevices.token], set: { userId: values.userId, appId: values.appId, lastUpdated: values.lastUpdated } })
    .run();
}

/** Removes the user's own registration of the token; false when they have none. */
export async function deletePushDevice(tx: Tx, userId: number, kind: PushDeviceKind, token: string): Promise<boolean> {
  const removed = tx
    .delete(pushDevices)
    .where(and(eq(pushDevices.userId, userId), eq(pushDevices.kind, kind), eq(pushDevices.token, token)))
    .returning({ id: pushDevices.id })
    .all();
  return removed.length > 0;
}
