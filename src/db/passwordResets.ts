import { and, eq, isNull } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { passwordResets } from "./tables";
export type { PasswordResetEmailPayload } from "./columnTypes";

export type PasswordReset = typeof passwordResets.$inferSelect;

export async function insertPasswordReset(tx: Tx, values: Omit<PasswordReset, "id" | "usedAt">): Promise<PasswordReset> {
  return (await tx.insert(passwordResets).values(values).returning())[0];
}

export async function findPasswordResetById(db: Reader, id: number): Promise<PasswordReset | undefined> {
  return (await db.select().from(passwordResets).where(eq(passwordResets.id, id)))[0];
}

export async function findPasswordResetByTokenHash(db: Reader, tokenHash: string): Promise<PasswordReset | undefined> {
  return (await db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash)))[0];
}

export async function markPasswordResetUsed(tx: Tx, id: number, at: number) {
  await tx.update(passwordResets).set({ usedAt: at }).where(eq(passwordResets.id, id));
}

/** A new link replaces the person's older unused ones. */
export async function retireUnusedPasswordResets(tx: Tx, userId: number, at: number) {
  await tx.update(passwordResets)
    .set({ usedAt: at })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

