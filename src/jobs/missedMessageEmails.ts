import { mailDueMissedMessages } from "../actions/missedMessageEmails";
import { runRepeatedly } from "./repeating";

/** Mails the missed messages whose batching period is over (actions/missedMessageEmails.ts), every `everySeconds`. */
export function startMissedMessageEmails(everySeconds: number): () => Promise<void> {
  return runRepeatedly("Missed-message e-mails", everySeconds, () => mailDueMissedMessages());
}
