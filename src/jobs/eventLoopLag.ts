import { recordEventLoopLag } from "../http/metrics";

/**
 * Samples how late the event loop runs: a timer due every `everyMs` notes how much later than
 * that it ran (GET /metrics, parley_event_loop_lag_seconds). A request that holds the event
 * loop for 300 ms shows as a sample near 0.3 s, whatever else was waiting then. 0 turns it off.
 */
export function startEventLoopLagSampling(everyMs: number): () => void {
  if (everyMs <= 0) return () => {};
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    recordEventLoopLag(Math.max(0, now - last - everyMs) / 1000);
    last = now;
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
