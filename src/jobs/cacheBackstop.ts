import { checkForExternalChanges, EXTERNAL_CHANGE_DELAY_MS } from "../db/caches";
import { dialect } from "../db/dialect";
import { log } from "../log";

/**
 * On PostgreSQL, looks every EXTERNAL_CHANGE_DELAY_MS whether anything was committed by anyone
 * else (db/caches.ts says how), so that no copy this node keeps outlives a change made
 * elsewhere by more than that. SQLite asks its data_version as copies are used instead.
 */
export function startCacheBackstop(): () => void {
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
  }, EXTERNAL_CHANGE_DELAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
