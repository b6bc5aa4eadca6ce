import { Cron } from "croner";
import { log } from "../log";

/**
 * A job that runs `task` at start and then every `everySeconds` (croner's interval, which
 * unlike a cron pattern goes past 59 seconds; `protect` keeps runs from overlapping, and a
 * run under way when the next is due makes that one wait for it). A failure is logged as
 * "<what> failed" and the job goes on. Stopping waits for a run under way: the database
 * closes after the jobs stop, and must not close under a run's transaction.
 */
export function runRepeatedly(what: string, everySeconds: number, task: () => unknown): () => Promise<void> {
  let underWay: Promise<void> | null = null;
  const attempt = async () => {
    try {
      await task();
    } catch (error) {
      log.error(`${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };
  const run = () => (underWay ??= attempt().finally(() => (underWay = null)));
  void run();
  const job = new Cron("* * * * * *", { interval: Math.max(1, Math.round(everySeconds)), protect: true, unref: true }, run);
  return async () => {
    job.stop();
    await underWay;
  };
}
