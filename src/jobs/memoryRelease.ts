import { requestsAnswered } from "../http/metrics";
import { log } from "../log";

/**
 * Gives memory back to the system once the server has gone quiet after work that grew it (a
 * burst of requests over many routes, a bulk change over 100,000 messages). Left to itself the
 * runtime keeps much of it: an idle process allocates nothing, so its collector has little
 * reason to run, the compiled code of every route a burst reached stays, and the allocators
 * keep freed pages. After the fuzz run of every route and four flag changes over 100,000
 * messages (bench:memory-load, bench/README.md), a server idle at 85 MB held 162 MB a minute
 * later and 142 MB ten minutes later; with this job, 105 MB within a minute.
 *
 * Every `checkSeconds` it looks at the process. It is quiet when no request was answered since
 * the last look and its main thread, which runs every request, worked less than QUIET_SHARE of
 * that time (collector threads tidying up after the burst do not count). When quiet and holding more than GROWTH
 * times the level it settled at, it releases: `Bun.shrink()` drops all compiled code (compiled
 * again when next run), collects in full and returns free allocator pages. `Bun.gc(true)`
 * alone keeps the code and most pages (after the fuzz run: 157 MB of 160, against 112). The
 * release holds the event loop for 40-150 ms once, so a request arriving just then waits that
 * long; a server answering anything, however little, is never quiet, so its clients do not
 * meet this pause while they use it (measured by CPU alone, a run of light requests after
 * heavy ones could count as quiet and have a release land in the next request).
 */
const QUIET_SHARE = 0.05;
const GROWTH = 1.2;

const MB = 1024 * 1024;

export function startMemoryRelease(checkSeconds: number): () => void {
  if (!(checkSeconds > 0)) return () => {};
  /** Resident bytes at the first quiet look after start, raised by any release that leaves more. */
  let settled: number | undefined;
  /** Set by a release, until the next quiet look measures what it left. */
  let releasedFrom: number | undefined;
  let cpuBefore = process.threadCpuUsage();
  let answeredBefore = requestsAnswered();
  const look = () => {
    const cpu = process.threadCpuUsage(cpuBefore);
    cpuBefore = process.threadCpuUsage();
    const answered = requestsAnswered() - answeredBefore;
    answeredBefore = requestsAnswered();
    if (answered > 0 || (cpu.user + cpu.system) / 1e6 >= QUIET_SHARE * checkSeconds) return;
    const resident = process.memoryUsage.rss();
    if (releasedFrom !== undefined) {
      log.debug(`Memory released after the server went quiet: ${(releasedFrom / MB).toFixed(0)} MB resident before, ${(resident / MB).toFixed(0)} MB after`);
      // A server that now holds more (more queues, more accounts cached) would otherwise release
      // at every look; one left below its old level climbs back to it as its routes are used.
      settled = Math.max(settled!, resident);
      releasedFrom = undefined;
    } else if (settled === undefined) {
      settled = resident;
    } else if (resident > GROWTH * settled) {
      releasedFrom = resident;
      Bun.shrink();
    }
  };
  const timer = setInterval(look, checkSeconds * 1000);
  timer.unref?.();
  return () => clearInterval(timer);
}
