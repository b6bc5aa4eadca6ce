import { deleteAlertWords, insertAlertWords, listAlertWords } from "../db/alertWords";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";

/**
 * Alert words (reference: add-alert-words, remove-alert-words): each user's own list, matched
 * without regard to case (messages/alertWordFlags.ts). Every change answers, and tells the
 * user's own clients, the whole new list.
 */

/** The reference's limit on one word or phrase, in characters. */
export const MAX_ALERT_WORD_LENGTH = 100;
/** Parley's own limit (the reference has none): every send looks for each recipient's words. */
export const MAX_ALERT_WORDS = 1000;

const fold = (word: string) => word.toLowerCase();

/** The words to add: each checked for length as given (as the reference does), then trimmed; blanks dropped. */
function cleaned(words: string[]): string[] {
  words.forEach((word, index) => {
    if ([...word].length > MAX_ALERT_WORD_LENGTH) throw badRequest(`alert_words[${index}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
  });
  return words.map((word) => word.trim()).filter((word) => word !== "");
}

async function changed(tx: Tx, user: User): Promise<string[]> {
  const list = await listAlertWords(tx, user.id);
  tx.emit({ type: "alert_words", alert_words: list }, [user.id]);
  return list;
}

/** Adds the words not yet in the list (without regard to case), keeping the case first given. */
export async function addAlertWords(user: User, words: string[]): Promise<string[]> {
  const wanted = cleaned(words);
  return write(async (tx) => {
    const known = new Set((await listAlertWords(tx, user.id)).map(fold));
    const added: string[] = [];
    for (const word of wanted) {
      if (known.has(fold(word))) continue;
      known.add(fold(word));
      added.push(word);
    }
    if (added.length === 0) return listAlertWords(tx, user.id);
    if (known.size > MAX_ALERT_WORDS) throw badRequest(`Too many alert words (limit: ${MAX_ALERT_WORDS})`);
    await insertAlertWords(tx, user.id, added);
    return changed(tx, user);
  });
}

/** Removes the words given, without regard to case; words not in the list are ignored. */
export async function removeAlertWords(user: User, words: string[]): Promise<string[]> {
  const unwanted = new Set(words.map(fold));
  return write(async (tx) => {
    const doomed = (await listAlertWords(tx, user.id)).filter((word) => unwanted.has(fold(word)));
    if (doomed.length === 0) return listAlertWords(tx, user.id);
    await deleteAlertWords(tx, user.id, doomed);
    return changed(tx, user);
  });
}
