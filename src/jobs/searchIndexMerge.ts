import { mergeIndexOnCommit, mergeIndexStep } from "../db/searchIndex";
import { writeInSlices } from "../db/slices";
import { log } from "../log";

/** How often the search index is merged (db/searchIndex.ts): whatever built up since, in slices. */
const MERGE_EVERY_MS = 250;

/**
 * Merges the full-text index's segments in small steps between requests, in place of the
 * merges FTS5 would make inside whichever commit crossed its threshold. At a clean stop the
 * index goes back to merging itself, for any other program that writes the database.
 */
export function startSearchIndexMerging(): () => void {
  mergeIndexOnCommit(false);
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await writeInSlices((_tx, slice) => {
        while (!slice.over) if (!mergeIndexStep()) return true;
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
