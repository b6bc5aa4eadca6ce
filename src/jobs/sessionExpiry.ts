import { Cron } from "croner";
import { removeExpiredSessions } from "../actions/sessions";
import { log } from "../log";

/**
 * Deletes browser sessions past their expiry. An expired session is refused when it is used
 * whether or not this has run; this only keeps the table (and the sessions list) small.
 */
export function startSessionExpiry(everySeconds = 3600): () => void {
  const run = () => {
    try {
      const removed = removeExpiredSessions();
      if (removed > 0) log.debug(`Removed ${removed} expired browser session(s)`);
    } catch (error) {
      log.error(`Session expiry sweep failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };
  run();
  const job = new Cron("* * * * * *", { interval: everySeconds, protect: true, unref: true }, run);
  return () => job.stop();
}
