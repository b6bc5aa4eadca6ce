import { removeExpiredSessions } from "../actions/sessions";
import { log } from "../log";
import { runRepeatedly } from "./repeating";

/**
 * Deletes browser sessions past their expiry. An expired session is refused when it is used
 * whether or not this has run; this only keeps the table (and the sessions list) small.
 */
export function startSessionExpiry(everySeconds = 3600): () => Promise<void> {
  return runRepeatedly("Session expiry sweep", everySeconds, async () => {
    const removed = await removeExpiredSessions();
    if (removed > 0) log.debug(`Removed ${removed} expired browser session(s)`);
  });
}
