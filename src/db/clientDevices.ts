import { and, count, eq } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { clientDevices } from "./tables";

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
