import { listAlertWords } from "../../db/alertWords";
import type { Reader } from "../../db/types";
import type { UserStateContext } from "./context";

/** alert_words: the viewer's own alert words, as they typed them. */
export async function alertWordsState(db: Reader, { viewer }: UserStateContext) {
  return { alert_words: await listAlertWords(db, viewer.id) };
}
