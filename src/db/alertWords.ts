import { and, asc, eq, inArray } from "drizzle-orm";
import { cachedUntilChange } from "./caches";
import { rawStatement } from "./prepared";
import type { Reader, Tx } from "./types";
import { alertWords } from "./tables";

/** A user's alert words as they typed them, in the order they were added (their IDs'). */
export async function listAlertWords(db: Reader, userId: number): Promise<string[]> {
  return (await db
    .select({ word: alertWords.word })
    .from(alertWords)
    .where(eq(alertWords.userId, userId))
    .orderBy(asc(alertWords.id)))
    .map((row) => row.word);
}

export async function insertAlertWords(tx: Tx, userId: number, words: string[]) {
  if (words.length === 0) return;
  await tx.insert(alertWords)
    .values(words.map((word) => ({ userId, word })))
    .onConflictDoNothing();
}

/** Deletes these exact stored words (the caller matched them without regard to case). */
export async function deleteAlertWords(tx: Tx, userId: number, words: string[]) {
  if (words.length === 0) return;
  await tx.delete(alertWords)
    .where(and(eq(alertWords.userId, userId), inArray(alertWords.word, words)));
}

const allAlertWords = rawStatement<{ user_id: number; word: string }, []>("SELECT user_id, word FROM alert_words");

/**
 * Every user's alert words, lower-cased, for the send path: most organizations have few or
 * none, so the whole table is kept, and a send whose recipients have none does no more than a
 * map lookup per recipient (none at all when nobody has any). Changes go through write().
 */
const alertWordsByUser = cachedUntilChange("alertWords", async (db) => {
  const byUser = new Map<number, string[]>();
  for (const [userId, word] of (await allAlertWords(db).values()) as Array<[number, string]>) {
    const lower = word.toLowerCase();
    const words = byUser.get(userId) ?? byUser.set(userId, []).get(userId)!;
    if (!words.includes(lower)) words.push(lower);
  }
  return byUser as ReadonlyMap<number, readonly string[]>;
});

export const alertWordsForSending = async (db: Reader): Promise<ReadonlyMap<number, readonly string[]>> => alertWordsByUser(db);
