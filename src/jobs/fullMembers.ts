import { Cron } from "croner";
import { promoteFullMembers } from "../actions/fullMembers";
import { log } from "../log";

/**
 * Members become full members once their accounts are waiting_period_threshold days old
 * (actions/fullMembers.ts); this notices it, at start and then every `everySeconds`.
 */
export function startFullMemberPromotion(everySeconds = 600): () => void {
  const run = () => {
    try {
      promoteFullMembers();
    } catch (error) {
      log.error(`Full member promotion failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };
  run();
  const job = new Cron("* * * * * *", { interval: Math.max(1, Math.round(everySeconds)), protect: true, unref: true }, run);
  return () => job.stop();
}
