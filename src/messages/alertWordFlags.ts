import { alertWordsForSending } from "../db/alertWords";
import { Flag } from "../db/messages";
import type { Reader } from "../db/types";

/**
 * Alert words (the reference's has_alert_word flag). As in the reference, words are looked for
 * in the message's Markdown source, without regard to case, and count only as whole words: the
 * character before must be a space or one of ( " . , ' ; [ * ` >, the one after a space or one
 * of ) " ? : . , ' ; ] ! * ` (or the text must begin or end there). Code and link text are
 * searched like any other text, as the reference does.
 */

const BEFORE = /[\s(".,';[*`>]/;
const AFTER = /[\s)"?:.,';\]!*`]/;

/** Whether `word` (lower-cased) occurs as a whole word in `text` (lower-cased). */
export function containsAlertWord(text: string, word: string): boolean {
  if (word === "") return false;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const end = at + word.length;
    if ((at === 0 || BEFORE.test(text[at - 1])) && (end === text.length || AFTER.test(text[end]))) return true;
  }
  return false;
}

/**
 * Adds HAS_ALERT_WORD to the bits of each recipient (never the sender) with an alert word in
 * `content`. Nothing is done beyond one map lookup per recipient when the organization has
 * alert words, and nothing at all when it has none.
 */
export async function addAlertWordBits(db: Reader, bits: Map<number, number>, content: string, senderId: number, recipientIds: readonly number[]) {
  const wordsByUser = await alertWordsForSending(db);
  if (wordsByUser.size === 0) return;
  let text: string | undefined;
  for (const userId of recipientIds) {
    const words = wordsByUser.get(userId);
    if (words === undefined || userId === senderId) continue;
    text ??= content.toLowerCase();
    if (words.some((word) => containsAlertWord(text!, word))) bits.set(userId, (bits.get(userId) ?? 0) | Flag.HAS_ALERT_WORD);
  }
}
