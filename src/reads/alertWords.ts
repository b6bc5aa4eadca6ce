import { listAlertWords } from "../db/alertWords";
import { database } from "../db/client";
import type { User } from "../db/users";

/** GET /users/me/alert_words: the caller's own alert words, as they typed them. */
export const listOwnAlertWords = (viewer: User): string[] => listAlertWords(database(), viewer.id);
