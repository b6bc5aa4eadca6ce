import { and, desc, eq } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Reader, Tx } from "./types";
import { users } from "./users";

/** Message drafts a user keeps on the server so all their clients share them (reference: /drafts). */
export const drafts = sqliteTable(
  "drafts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** "stream", "private", or "" for a draft with no recipient yet. */
    type: text("type").$type<DraftType>().notNull(),
    /** The channel ID (stream) or the user IDs (private); empty when unaddressed. */
    to: text("to", { mode: "json" }).$type<number[]>().notNull(),
    topic: text("topic").notNull(),
    content: text("content").notNull(),
    /** Last edit, UNIX seconds. */
    timestamp: integer("timestamp").notNull(),
  },
  (table) => [index("drafts_user").on(table.userId, table.timestamp)],
);

export type DraftType = "" | "stream" | "private";
export type Draft = typeof drafts.$inferSelect;
export type DraftFields = Omit<typeof drafts.$inferInsert, "id" | "userId">;

/** A user's drafts, most recently edited first. */
export async function listDrafts(db: Reader, userId: number): Promise<Draft[]> {
  return db.select().from(drafts).where(eq(drafts.userId, userId)).orderBy(desc(drafts.timestamp), desc(drafts.id)).all();
}

export async function findDraft(db: Reader, userId: number, draftId: number): Promise<Draft | undefined> {
  return db
    .select()
    .from(drafts)
    .where(and(eq(drafts.id, draftId), eq(drafts.userId, userId)))
    .get();
}

export async function insertDrafts(tx: Tx, userId: number, rows: DraftFields[]): Promise<Draft[]> {
  if (rows.length === 0) return [];
  return tx
    .insert(drafts)
    .values(rows.map((row) => ({ ...row, userId })))
    .returning()
    .all();
}

export async function replaceDraft(tx: Tx, draftId: number, fields: DraftFields): Promise<Draft> {
  return tx.update(drafts).set(fields).where(eq(drafts.id, draftId)).returning().get()!;
}

export async function deleteDraft(tx: Tx, draftId: number) {
  tx.delete(drafts).where(eq(drafts.id, draftId)).run();
}

export async function deleteDraftsOfUser(tx: Tx, userId: number) {
  tx.delete(drafts).where(eq(drafts.userId, userId)).run();
}
