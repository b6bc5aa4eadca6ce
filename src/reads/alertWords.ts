import { listAlertWords } from "../db/alertWords";
import { readWithoutSnapshot } from "../db/transaction";
import type { User } from "../db/users";

/** GET /users/me/alert_words: the caller's own alert words, as they typed them. */
export const listOwnAlertWords = (viewer: User): Promise<string[]> => readWithoutSnapshot((db) => listAlertWords(db, viewer.id));
