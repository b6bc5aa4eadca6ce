import { recordEventLoopLag } from "../http/metrics";

/**
 * Samples how late the event loop runs: a timer due every `everyMs` notes how much later than
 * that it ran (GET /metrics, parley_event_loop_lag_seconds). A request that holds the event
 * loop for 300 ms shows as a sample near 0.3 s, whatever else was waiting then. 0 turns it off.
 *
 * A timer also runs late when the process waits for a processor (a machine busy with other
 * work), which no code of ours can help. So each sample also notes how much of its lateness
 * the process spent on the CPU (parley_event_loop_lag_cpu_seconds): high lag with little CPU
 * is an overloaded machine; high lag with as much CPU is work of ours holding the loop.
 */
export function startEventLoopLagSampling(everyMs: number): () => void {
  if (everyMs <= 0) return () => {};
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const lateMs = Math.max(0, now - last - everyMs);
    recordEventLoopLag(lateMs / 1000, Math.min(lateMs, (cpu.user + cpu.system) / 1000) / 1000);
    last = now;
    lastCpu = process.cpuUsage();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
