import { and, asc, eq } from "drizzle-orm";
import { cachedUntilChange } from "./caches";
import { rawStatement } from "./prepared";
import type { Reader, Tx } from "./types";
import { mutedUsers } from "./tables";

/** The users a user muted, in the order they were muted (their rows' IDs), as the API's `muted_users` entries. */
export async function listMutedUsers(db: Reader, userId: number): Promise<Array<{ id: number; timestamp: number }>> {
  return await db
    .select({ id: mutedUsers.mutedUserId, timestamp: mutedUsers.dateMuted })
    .from(mutedUsers)
    .where(eq(mutedUsers.userId, userId))
    .orderBy(asc(mutedUsers.id));
}

export async function isMuted(db: Reader, userId: number, mutedUserId: number): Promise<boolean> {
  return (await db.select({ id: mutedUsers.mutedUserId }).from(mutedUsers).where(and(eq(mutedUsers.userId, userId), eq(mutedUsers.mutedUserId, mutedUserId))))[0] !== undefined;
}

export async function insertMute(tx: Tx, userId: number, mutedUserId: number, dateMuted: number) {
  await tx.insert(mutedUsers).values({ userId, mutedUserId, dateMuted });
}

export async function deleteMute(tx: Tx, userId: number, mutedUserId: number) {
  await tx.delete(mutedUsers)
    .where(and(eq(mutedUsers.userId, userId), eq(mutedUsers.mutedUserId, mutedUserId)));
}

const allMutes = rawStatement<{ user_id: number; muted_user_id: number }, []>("SELECT user_id, muted_user_id FROM muted_users");

/**
 * Per muted user, who muted them, for the send path: a message from someone nobody muted
 * costs one map lookup. Mutes change only in write() transactions.
 */
const mutersByMutedUser = cachedUntilChange("mutedUsers", async (db) => {
  const muters = new Map<number, number[]>();
  for (const [userId, mutedUserId] of (await allMutes(db).values()) as Array<[number, number]>) (muters.get(mutedUserId) ?? muters.set(mutedUserId, []).get(mutedUserId)!).push(userId);
  return muters as ReadonlyMap<number, readonly number[]>;
});

/** The users who muted `senderId` (none: undefined). */
export const mutersOf = async (db: Reader, senderId: number): Promise<readonly number[] | undefined> => (await mutersByMutedUser(db)).get(senderId);
