import { leadsAlone, stopLeading, tryToLead } from "../db/leadership";
import { log } from "../log";

/** The advisory lock the node running the cluster's one-at-a-time jobs holds (db/leadership.ts). */
const LEADER_LOCK = 7_256_003;
const TRY_EVERY_MS = 2_000;

/**
 * Runs `start` (which starts jobs and returns how to stop them) on one node of a cluster at a
 * time: at once in a single process; in a cluster, on the node that takes the leader's lock, and
 * on another one within TRY_EVERY_MS of that node's death.
 */
export function whileLeading(start: () => () => Promise<void>): () => Promise<void> {
  if (leadsAlone()) return start();
  let stopJobs: (() => Promise<void>) | null = null;
  let stopped = false;
  const attempt = async () => {
    if (stopped || stopJobs) return;
    if (await tryToLead(LEADER_LOCK)) {
      if (stopped) return void (await stopLeading(LEADER_LOCK));
      log.info("This node now runs the cluster's one-at-a-time jobs (the outbox, scheduled messages, expiries)");
      stopJobs = start();
    }
  };
  const timer = setInterval(() => void attempt().catch(() => {}), TRY_EVERY_MS);
  timer.unref();
  void attempt().catch(() => {});
  return async () => {
    stopped = true;
    clearInterval(timer);
    await stopJobs?.();
    await stopLeading(LEADER_LOCK);
  };
}
