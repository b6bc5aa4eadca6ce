import { Cron } from "croner";
import { deliverDueScheduledMessages } from "../actions/scheduledMessageDelivery";
import { log } from "../log";

/**
 * Sends scheduled messages when due (actions/scheduledMessageDelivery.ts). Scheduled times are
 * whole seconds, so a croner job firing at the start of every `everySeconds`-th second sends
 * each message within milliseconds of its time (with the default of 1). It runs once at start
 * too, for messages that came due while the server was down. `protect` keeps a long run from
 * overlapping the next.
 */
export function startScheduledDelivery(everySeconds: number): () => void {
  const run = () => {
    try {
      deliverDueScheduledMessages();
    } catch (error) {
      log.error(`Scheduled message delivery failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };
  run();
  const step = Math.min(59, Math.max(1, Math.round(everySeconds)));
  const job = new Cron(step === 1 ? "* * * * * *" : `*/${step} * * * * *`, { protect: true, unref: true }, run);
  return () => job.stop();
}
