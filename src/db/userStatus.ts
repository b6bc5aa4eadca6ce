import { eq } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Reader, Tx } from "./types";
import { users } from "./users";
import type { ReactionType } from "../model/emoji";

/**
 * A user's status (spec 2.5): text and emoji, one row per user who ever set one. `away` is not
 * stored here: it is the negation of the user's presence_enabled setting.
 */
export const userStatuses = sqliteTable("user_statuses", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id),
  statusText: text("status_text").notNull().default(""),
  emojiName: text("emoji_name").notNull().default(""),
  emojiCode: text("emoji_code").notNull().default(""),
  reactionType: text("reaction_type").$type<ReactionType>().notNull().default("unicode_emoji"),
  timestamp: integer("timestamp").notNull(),
});

export type UserStatusRow = typeof userStatuses.$inferSelect;
export type UserStatusChanges = Partial<Pick<UserStatusRow, "statusText" | "emojiName" | "emojiCode" | "reactionType">>;

export async function findUserStatus(db: Reader, userId: number): Promise<UserStatusRow | undefined> {
  return db.select().from(userStatuses).where(eq(userStatuses.userId, userId)).get();
}

export async function listUserStatuses(db: Reader): Promise<UserStatusRow[]> {
  return db.select().from(userStatuses).all();
}

export async function saveUserStatus(tx: Tx, userId: number, changes: UserStatusChanges, timestamp: number) {
  tx.insert(userStatuses)
    .values({ userId, ...changes, timestamp })
    .onConflictDoUpdate({ target: userStatuses.userId, set: { ...changes, timestamp } })
    .run();
}
