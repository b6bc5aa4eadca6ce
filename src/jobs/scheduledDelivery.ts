import { Cron } from "croner";
import { deliverDueScheduledMessages } from "../actions/scheduledMessageDelivery";
import { log } from "../log";

/**
 * Sends scheduled messages when due (actions/scheduledMessageDelivery.ts). Scheduled times are
 * whole seconds, so a croner job firing at the start of every `everySeconds`-th second sends
 * each message within milliseconds of its time (with the default of 1). It runs once at start
 * too, for messages that came due while the server was down. `protect` keeps a long run from
 * overlapping the next, and the run at start shares a run under way rather than overlap it.
 */
export function startScheduledDelivery(everySeconds: number): () => Promise<void> {
  let stopped = false;
  let underWay: Promise<void> | null = null;
  const deliver = async () => {
    try {
      await deliverDueScheduledMessages();
    } catch (error) {
      log.error(`Scheduled message delivery failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };
  const run = async () => {
    // Nothing may be published once the queues are being saved at shutdown.
    if (stopped) return;
    await (underWay ??= deliver().finally(() => (underWay = null)));
  };
  void run();
  // A timer may fire a hair before the second it aims at; a run then waits for that second,
  // rather than leaving its messages to the next run a whole step later.
  const onTime = async () => {
    const early = 1000 - (Date.now() % 1000);
    if (early < 50) await new Promise((resolve) => setTimeout(resolve, early + 1));
    await run();
  };
  const step = Math.min(59, Math.max(1, Math.round(everySeconds)));
  const job = new Cron(step === 1 ? "* * * * * *" : `*/${step} * * * * *`, { protect: true, unref: true }, onTime);
  return async () => {
    stopped = true;
    job.stop();
    // A run under way finishes, and publishes, before the queues are saved.
    await underWay;
  };
}
