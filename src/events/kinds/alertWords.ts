/** A user's alert words changed: the whole new list, to that user's own clients. */
export interface AlertWordsEvent {
  type: "alert_words";
  alert_words: string[];
}
