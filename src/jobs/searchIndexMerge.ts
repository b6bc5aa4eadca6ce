import { mergeIndexOnCommit, mergeIndexStep } from "../db/searchIndex";
import { workInSlicesUnderWay, writeInSlices } from "../db/slices";
import { log } from "../log";

/** How often the search index is merged (db/searchIndex.ts): whatever built up since, in slices. */
const MERGE_EVERY_MS = 250;
/** Merging waits while work in slices is under way, but never longer than this. */
const LONGEST_WAIT_MS = 10_000;

/**
 * Merges the full-text index's segments in small steps between requests, in place of the
 * merges FTS5 would make inside whichever commit crossed its threshold. At a clean stop the
 * index goes back to merging itself, for any other program that writes the database.
 */
export function startSearchIndexMerging(): () => void {
  mergeIndexOnCommit(false);
  let running = false;
  let lastMerge = performance.now();
  const timer = setInterval(async () => {
    if (running) return;
    // One step of merging can take 40 ms on a large index: it would add that to a long
    // request's pauses (as its slices are cut finer), so it waits for one to end.
    if (workInSlicesUnderWay() && performance.now() - lastMerge < LONGEST_WAIT_MS) return;
    running = true;
    lastMerge = performance.now();
    try {
      await writeInSlices((_tx, slice) => {
        while (!slice.over) {
          // Long work that began meanwhile goes first; the rest is merged next time.
          if (workInSlicesUnderWay(1) || !mergeIndexStep()) return true;
        }
        return undefined;
      });
    } catch (error) {
      log.warn(`Merging the search index failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      running = false;
    }
  }, MERGE_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    mergeIndexOnCommit(true);
  };
}
