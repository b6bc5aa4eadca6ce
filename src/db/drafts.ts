import { and, desc, eq } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { drafts } from "./tables";
export type { DraftType } from "./columnTypes";

export type Draft = typeof drafts.$inferSelect;
export type DraftFields = Omit<typeof drafts.$inferInsert, "id" | "userId">;

/** A user's drafts, most recently edited first. */
export async function listDrafts(db: Reader, userId: number): Promise<Draft[]> {
  return await db.select().from(drafts).where(eq(drafts.userId, userId)).orderBy(desc(drafts.timestamp), desc(drafts.id));
}

export async function findDraft(db: Reader, userId: number, draftId: number): Promise<Draft | undefined> {
  return (await db
    .select()
    .from(drafts)
    .where(and(eq(drafts.id, draftId), eq(drafts.userId, userId))))[0];
}

export async function insertDrafts(tx: Tx, userId: number, rows: DraftFields[]): Promise<Draft[]> {
  if (rows.length === 0) return [];
  return await tx
    .insert(drafts)
    .values(rows.map((row) => ({ ...row, userId })))
    .returning();
}

export async function replaceDraft(tx: Tx, draftId: number, fields: DraftFields): Promise<Draft> {
  return (await tx.update(drafts).set(fields).where(eq(drafts.id, draftId)).returning())[0]!;
}

export async function deleteDraft(tx: Tx, draftId: number) {
  await tx.delete(drafts).where(eq(drafts.id, draftId));
}

export async function deleteDraftsOfUser(tx: Tx, userId: number) {
  await tx.delete(drafts).where(eq(drafts.userId, userId));
}
