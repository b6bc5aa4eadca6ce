import { Cron } from "croner";
import { expireOverdueInvitations } from "../actions/invites";
import { log } from "../log";

/**
 * Marks invitations past their expiry as expired (actions/invites.ts) and tells those who
 * manage them. Acceptance checks expiry by time on its own, so this only keeps lists and
 * clients current; it runs at start and then every `everySeconds` (croner's interval, which
 * unlike a cron pattern goes past 59 seconds). `protect` keeps runs from overlapping.
 */
export function startInviteExpiry(everySeconds: number): () => void {
  const run = () => {
    try {
      expireOverdueInvitations();
    } catch (error) {
      log.error(`Invitation expiry sweep failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };
  run();
  const job = new Cron("* * * * * *", { interval: Math.max(1, Math.round(everySeconds)), protect: true, unref: true }, run);
  return () => job.stop();
}
