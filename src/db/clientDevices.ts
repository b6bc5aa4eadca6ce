import { and, count, eq } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { clientDevices } from "./tables";

export type ClientDevice = typeof clientDevices.$inferSelect;

export async function insertClientDevice(tx: Tx, userId: number, createTime: number): Promise<ClientDevice> {
  return (await tx.insert(clientDevices).values({ userId, createTime }).returning())[0];
}

export async function countClientDevices(db: Reader, userId: number): Promise<number> {
  return (await db.select({ n: count() }).from(clientDevices).where(eq(clientDevices.userId, userId)))[0]!.n;
}

/** One of the user's own devices; another user's is as absent as an unknown ID. */
export async function findOwnClientDevice(db: Reader, userId: number, id: number): Promise<ClientDevice | undefined> {
  return (await db.select().from(clientDevices).where(and(eq(clientDevices.id, id), eq(clientDevices.userId, userId))))[0];
}

export type PushRegistrationChanges = Partial<Pick<ClientDevice, "pushKeyId" | "pushKey" | "tokenKind" | "tokenId" | "bouncerPublicKey" | "encryptedPushRegistration" | "pushRegistrationTime">>;

export async function updateClientDevice(tx: Tx, id: number, changes: PushRegistrationChanges) {
  await tx.update(clientDevices).set(changes).where(eq(clientDevices.id, id));
}

export async function deleteClientDevice(tx: Tx, id: number) {
  await tx.delete(clientDevices).where(eq(clientDevices.id, id));
}
