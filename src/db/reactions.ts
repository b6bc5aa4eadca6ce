import { and, asc, eq, inArray } from "drizzle-orm";
import type { ReactionType } from "../model/emoji";
import { rowsForParts } from "./sqlLists";
import type { Reader, Tx } from "./types";
import { reactions } from "./tables";

export type Reaction = typeof reactions.$inferSelect;

/** What identifies a reaction within a message, apart from who made it. */
export interface EmojiKey {
  emojiCode: string;
  reactionType: ReactionType;
}

export async function findReaction(db: Reader, messageId: number, userId: number, key: EmojiKey): Promise<Reaction | undefined> {
  return (await db
    .select()
    .from(reactions)
    .where(
      and(
        eq(reactions.messageId, messageId),
        eq(reactions.userId, userId),
        eq(reactions.emojiCode, key.emojiCode),
        eq(reactions.reactionType, key.reactionType),
      ),
    ))[0];
}

/** Anyone's reaction with this emoji on the message: a new one joins it under the same name. */
export async function findReactionWithEmoji(db: Reader, messageId: number, key: EmojiKey): Promise<Reaction | undefined> {
  return (await db
    .select()
    .from(reactions)
    .where(and(eq(reactions.messageId, messageId), eq(reactions.emojiCode, key.emojiCode), eq(reactions.reactionType, key.reactionType)))
    .orderBy(asc(reactions.id)))[0];
}

export async function insertReaction(tx: Tx, values: typeof reactions.$inferInsert): Promise<Reaction> {
  return (await tx.insert(reactions).values(values).returning())[0];
}

export async function deleteReaction(tx: Tx, id: number) {
  await tx.delete(reactions).where(eq(reactions.id, id));
}

/** The reactions to these messages (read in parts), each message's oldest first. */
export async function reactionsToMessages(db: Reader, messageIds: number[]): Promise<Reaction[]> {
  return rowsForParts(messageIds, (part) => db.select().from(reactions).where(inArray(reactions.messageId, part)).orderBy(asc(reactions.id)));
}
