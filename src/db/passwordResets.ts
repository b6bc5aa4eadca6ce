import { and, eq, isNull } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Reader, Tx } from "./types";
import { users } from "./users";

/**
 * One-time links that let a person choose a new password: e-mailed to them, or handed over by
 * an administrator. Only the token's SHA-256 is stored; a link works once, until it expires.
 */
export const passwordResets = sqliteTable("password_resets", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  tokenHash: text("token_hash").notNull().unique(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id),
  /** Who asked for it: the person themselves or an administrator. */
  createdById: integer("created_by_id")
    .notNull()
    .references(() => users.id),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});

export type PasswordReset = typeof passwordResets.$inferSelect;

export async function insertPasswordReset(tx: Tx, values: Omit<PasswordReset, "id" | "usedAt">): Promise<PasswordReset> {
  return tx.insert(passwordResets).values(values).returning().get();
}

export async function findPasswordResetById(db: Reader, id: number): Promise<PasswordReset | undefined> {
  return db.select().from(passwordResets).where(eq(passwordResets.id, id)).get();
}

export async function findPasswordResetByTokenHash(db: Reader, tokenHash: string): Promise<PasswordReset | undefined> {
  return db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash)).get();
}

export async function markPasswordResetUsed(tx: Tx, id: number, at: number) {
  tx.update(passwordResets).set({ usedAt: at }).where(eq(passwordResets.id, id)).run();
}

/** A new link replaces the person's older unused ones. */
export async function retireUnusedPasswordResets(tx: Tx, userId: number, at: number) {
  tx.update(passwordResets)
    .set({ usedAt: at })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)))
    .run();
}

/** What the outbox keeps for a reset e-mail; the link is checked again before it is sent. */
export interface PasswordResetEmailPayload {
  reset_id: number;
  to: string;
  full_name: string;
  /** The administrator who asked for it; null when the person asked themselves. */
  requested_by: string | null;
  realm_name: string;
  realm_url: string;
  link: string;
  /** UNIX seconds. */
  expires_at: number;
}
