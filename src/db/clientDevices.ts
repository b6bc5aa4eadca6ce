import { and, count, eq } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Reader, Tx } from "./types";
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

export type ClientDevice = typeof clientDevices.$inferSelect;

export async function insertClientDevice(tx: Tx, userId: number, createTime: number): Promise<ClientDevice> {
  return tx.insert(clientDevices).values({ userId, createTime }).returning().get();
}

export async function countClientDevices(db: Reader, userId: number): Promise<number> {
  return db.select({ n: count() }).from(clientDevices).where(eq(clientDevices.userId, userId)).get()!.n;
}

/** One of the user's own devices; another user's is as absent as an unknown ID. */
export async function findOwnClientDevice(db: Reader, userId: number, id: number): Promise<ClientDevice | undefined> {
  return db.select().from(clientDevices).where(and(eq(clientDevices.id, id), eq(clientDevices.userId, userId))).get();
}

export type PushRegistrationChanges = Partial<Pick<ClientDevice, "pushKeyId" | "pushKey" | "tokenKind" | "tokenId" | "bouncerPublicKey" | "encryptedPushRegistration" | "pushRegistrationTime">>;

export async function updateClientDevice(tx: Tx, id: number, changes: PushRegistrationChanges) {
  tx.update(clientDevices).set(changes).where(eq(clientDevices.id, id)).run();
}

export async function deleteClientDevice(tx: Tx, id: number) {
  tx.delete(clientDevices).where(eq(clientDevices.id, id)).run();
}
