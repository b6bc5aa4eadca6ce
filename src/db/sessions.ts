import { and, desc, eq, lte } from "drizzle-orm";
import { rawStatement } from "./prepared";
import type { Reader, Tx } from "./types";
import { sessions } from "./tables";

export type Session = typeof sessions.$inferSelect;

export async function insertSession(tx: Tx, values: Omit<Session, "id">): Promise<Session> {
  return (await tx.insert(sessions).values(values).returning())[0];
}

// Looked up on every request a browser makes: a prepared statement, not a query built each time.
const byTokenHash = rawStatement<{ id: number; user_id: number; last_seen_at: number; expires_at: number }, [string]>(
  "SELECT id, user_id, last_seen_at, expires_at FROM sessions WHERE token_hash = ?",
);

export async function findSessionByTokenHash(db: Reader, tokenHash: string): Promise<{ id: number; userId: number; lastSeenAt: number; expiresAt: number } | undefined> {
  const row = await byTokenHash(db).get(tokenHash);
  return row ? { id: row.id, userId: row.user_id, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at } : undefined;
}

export async function listSessionsOf(db: Reader, userId: number): Promise<Session[]> {
  return await db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
}

export async function touchSession(tx: Tx, id: number, lastSeenAt: number, expiresAt: number) {
  await tx.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.id, id));
}

/** Deletes one of a user's sessions; false when they have none with that ID. */
export async function deleteSession(tx: Tx, userId: number, id: number): Promise<boolean> {
  const deleted = await tx.delete(sessions).where(and(eq(sessions.id, id), eq(sessions.userId, userId))).returning({ id: sessions.id });
  return deleted.length > 0;
}

export async function deleteSessionByTokenHash(tx: Tx, tokenHash: string) {
  await tx.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Every session of a user but one (null: all of them), as after a password change or deactivation. */
export async function deleteSessionsOf(tx: Tx, userId: number, exceptId: number | null = null) {
  const rows = await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
  for (const row of rows) if (row.id !== exceptId) await tx.delete(sessions).where(eq(sessions.id, row.id));
}

export async function deleteExpiredSessions(tx: Tx, at: number): Promise<number> {
  return (await tx.delete(sessions).where(lte(sessions.expiresAt, at)).returning({ id: sessions.id })).length;
}
