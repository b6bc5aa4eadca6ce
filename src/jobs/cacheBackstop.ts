import { checkForExternalChanges } from "../db/caches";
import { dialect } from "../db/dialect";
import { log } from "../log";

/**
 * On PostgreSQL, looks every `everyMs` (PARLEY_CHANGE_CHECK_MS, 1 s) whether anything was
 * committed (db/caches.ts says how), so that no copy this node keeps outlives a change made
 * behind its back (an operator's psql; a cluster's invalidation lost on the way) by more than
 * that. The look cannot tell this process's own commits from others', so under a stream of
 * sends every copy is reloaded each time: more often would cost every node more as the sends
 * grow. SQLite asks its data_version as copies are used instead.
 */
export function startCacheBackstop(everyMs: number): () => void {
  if (dialect() !== "postgres") return () => {};
  let failing = false;
  const timer = setInterval(() => {
    checkForExternalChanges().then(
      () => (failing = false),
      (error: unknown) => {
        if (!failing) log.warn(`Checking the database for changes made elsewhere failed (cached copies may be stale until it works again): ${error instanceof Error ? error.message : String(error)}`);
        failing = true;
      },
    );
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
