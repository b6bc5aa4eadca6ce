import { collectIdleQueues } from "../events/registry";

/**
 * Drops event queues nobody has used for the queue timeout. A plain setInterval rather than a
 * croner job: the period derives from a timeout that tests set below a second, finer than
 * cron expressions go. A queue is also refused the moment it is found idle on use, so the
 * sweep only bounds how long a forgotten queue holds memory.
 */
export function startQueueCollection(queueTimeoutSeconds: number): () => void {
  const period = Math.min(60_000, Math.max(100, (queueTimeoutSeconds * 1000) / 4));
  const timer = setInterval(collectIdleQueues, period);
  timer.unref?.();
  return () => clearInterval(timer);
}
