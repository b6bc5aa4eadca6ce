import { and, asc, eq, inArray } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { ReactionType } from "../model/emoji";
import { messages } from "./messages";
import { rowsForParts } from "./sqlLists";
import type { Reader, Tx } from "./types";
import { users } from "./users";

/** One user's emoji reaction to one message; deleting the message takes its reactions along. */
export const reactions = sqliteTable(
  "reactions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    emojiName: text("emoji_name").notNull(),
    emojiCode: text("emoji_code").notNull(),
    reactionType: text("reaction_type").$type<ReactionType>().notNull(),
  },
  (table) => [
    // The name is not part of identity: two names for one code are one reaction (a "vote").
    uniqueIndex("reactions_identity").on(table.messageId, table.userId, table.emojiCode, table.reactionType),
    index("reactions_message_code").on(table.messageId, table.emojiCode, table.reactionType),
  ],
);

export type Reaction = typeof reactions.$inferSelect;

/** What identifies a reaction within a message, apart from who made it. */
export interface EmojiKey {
  emojiCode: string;
  reactionType: ReactionType;
}

export async function findReaction(db: Reader, messageId: number, userId: number, key: EmojiKey): Promise<Reaction | undefined> {
  return db
    .select()
    .from(reactions)
    .where(
      and(
        eq(reactions.messageId, messageId),
        eq(reactions.userId, userId),
        eq(reactions.emojiCode, key.emojiCode),
        eq(reactions.reactionType, key.reactionType),
      ),
    )
    .get();
}

/** Anyone's reaction with this emoji on the message: a new one joins it under the same name. */
export async function findReactionWithEmoji(db: Reader, messageId: number, key: EmojiKey): Promise<Reaction | undefined> {
  return db
    .select()
    .from(reactions)
    .where(and(eq(reactions.messageId, messageId), eq(reactions.emojiCode, key.emojiCode), eq(reactions.reactionType, key.reactionType)))
    .orderBy(asc(reactions.id))
    .get();
}

export async function insertReaction(tx: Tx, values: typeof reactions.$inferInsert): Promise<Reaction> {
  return tx.insert(reactions).values(values).returning().get();
}

export async function deleteReaction(tx: Tx, id: number) {
  tx.delete(reactions).where(eq(reactions.id, id)).run();
}

/** The reactions to these messages (read in parts), each message's oldest first. */
export async function reactionsToMessages(db: Reader, messageIds: number[]): Promise<Reaction[]> {
  return rowsForParts(messageIds, (part) => db.select().from(reactions).where(inArray(reactions.messageId, part)).orderBy(asc(reactions.id)).all());
}
