import { eq } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { userStatuses } from "./tables";

export type UserStatusRow = typeof userStatuses.$inferSelect;
export type UserStatusChanges = Partial<Pick<UserStatusRow, "statusText" | "emojiName" | "emojiCode" | "reactionType">>;

export async function findUserStatus(db: Reader, userId: number): Promise<UserStatusRow | undefined> {
  return (await db.select().from(userStatuses).where(eq(userStatuses.userId, userId)))[0];
}

export async function listUserStatuses(db: Reader): Promise<UserStatusRow[]> {
  return await db.select().from(userStatuses);
}

export async function saveUserStatus(tx: Tx, userId: number, changes: UserStatusChanges, timestamp: number) {
  await tx.insert(userStatuses)
    .values({ userId, ...changes, timestamp })
    .onConflictDoUpdate({ target: userStatuses.userId, set: { ...changes, timestamp } });
}
