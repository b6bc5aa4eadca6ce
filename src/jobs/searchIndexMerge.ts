import { mergeIndexOnCommit, mergeIndexStep } from "../db/searchIndex";
import { upkeepInSlices, workInSlicesUnderWay } from "../db/slices";
import { write } from "../db/transaction";
import { log } from "../log";

/** Merging waits while work in slices is under way, but never longer than this. */
const LONGEST_WAIT_MS = 10_000;

/** Thrown to roll back a pass that found nothing to merge: an idle server commits nothing. */
class NothingToMerge extends Error {}

const mergeOnCommit = (on: boolean) => write((tx) => mergeIndexOnCommit(tx, on));

const failed = (error: unknown) => log.warn(`Merging the search index failed: ${error instanceof Error ? error.message : String(error)}`);

/**
 * Merges the full-text index's segments in small steps between requests (db/searchIndex.ts),
 * every `everyMs`, in place of the merges FTS5 would make inside whichever commit crossed its
 * threshold. 0 leaves merging to those commits, SQLite's way. At a clean stop the index goes
 * back to merging itself, for any other program that writes the database. The setting is a
 * write of its own, taken in turn before the first merge's.
 */
export function startSearchIndexMerging(everyMs: number): () => void | Promise<void> {
  if (everyMs <= 0) {
    void mergeOnCommit(true).catch(failed);
    return () => {};
  }
  void mergeOnCommit(false).catch(failed);
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
      await upkeepInSlices(async (tx, slice) => {
        let merged = false;
        while (!slice.over) {
          // Long work that began meanwhile goes first; the rest is merged next time.
          if (workInSlicesUnderWay(1)) return true;
          if (!(await mergeIndexStep(tx))) {
            if (!merged) throw new NothingToMerge();
            return true;
          }
          merged = true;
        }
        return undefined;
      });
    } catch (error) {
      if (!(error instanceof NothingToMerge)) failed(error);
    } finally {
      running = false;
    }
  }, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    return mergeOnCommit(true);
  };
}
