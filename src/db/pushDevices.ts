import { and, eq } from "drizzle-orm";
import type { Tx } from "./types";
import type { PushDeviceKind } from "./columnTypes";
import { pushDevices } from "./tables";
export type { PushDeviceKind } from "./columnTypes";

export type PushDevice = typeof pushDevices.$inferSelect;

/** Registers the token for this user, taking it over from whoever had it (a device whose previous user never logged out). */
export async function savePushDevice(tx: Tx, values: { userId: number; kind: PushDeviceKind; token: string; appId: string | null; lastUpdated: number }) {
  await tx.insert(pushDevices)
    .values(values)
    .onConflictDoUpdate({ target: [pushDevices.kind, pushDevices.token], set: { userId: values.userId, appId: values.appId, lastUpdated: values.lastUpdated } });
}

/** Removes the user's own registration of the token; false when they have none. */
export async function deletePushDevice(tx: Tx, userId: number, kind: PushDeviceKind, token: string): Promise<boolean> {
  const removed = await tx
    .delete(pushDevices)
    .where(and(eq(pushDevices.userId, userId), eq(pushDevices.kind, kind), eq(pushDevices.token, token)))
    .returning({ id: pushDevices.id });
  return removed.length > 0;
}
