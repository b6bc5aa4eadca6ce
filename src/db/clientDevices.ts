import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * A signed-in client install (register_client_device), with the end-to-end push registration
 * the mobile app attaches to it (mobile_push/register). Stored only: nothing is pushed yet.
 */
export const clientDevices = sqliteTable(
  "client_devices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    createTime: integer("create_time").notNull(),
    pushKeyId: integer("push_key_id"),
    pushKey: text("push_key"),
    tokenKind: text("token_kind").$type<"fcm" | "apns">(),
    tokenId: text("token_id"),
    bouncerPublicKey: text("bouncer_public_key"),
    encryptedPushRegistration: text("encrypted_push_registration"),
    pushRegistrationTime: integer("push_registration_time"),
  },
  (table) => [index("client_devices_user").on(table.userId)],
);
