import { and, asc, eq } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { savedSnippets } from "./tables";

export type SavedSnippet = typeof savedSnippets.$inferSelect;

export async function listSavedSnippets(db: Reader, userId: number): Promise<SavedSnippet[]> {
  return await db.select().from(savedSnippets).where(eq(savedSnippets.userId, userId)).orderBy(asc(savedSnippets.id));
}

/** One of the user's own snippets; another user's is as absent as an unknown ID. */
export async function findOwnSavedSnippet(db: Reader, userId: number, id: number): Promise<SavedSnippet | undefined> {
  return (await db.select().from(savedSnippets).where(and(eq(savedSnippets.id, id), eq(savedSnippets.userId, userId))))[0];
}

export async function insertSavedSnippet(tx: Tx, values: typeof savedSnippets.$inferInsert): Promise<SavedSnippet> {
  return (await tx.insert(savedSnippets).values(values).returning())[0];
}

export async function updateSavedSnippet(tx: Tx, id: number, changes: { title?: string; content?: string }): Promise<SavedSnippet> {
  return (await tx.update(savedSnippets).set(changes).where(eq(savedSnippets.id, id)).returning())[0]!;
}

export async function deleteSavedSnippet(tx: Tx, id: number) {
  await tx.delete(savedSnippets).where(eq(savedSnippets.id, id));
}
