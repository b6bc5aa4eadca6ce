import { checkpointInBackground } from "../db/checkpoints";
import { log } from "../log";

/** How often the worker checkpoints the write-ahead log (db/checkpoints.ts). */
const CHECKPOINT_EVERY_MS = 1000;

/** WAL checkpoints in a worker thread rather than in the commit that fills the log. */
export function startBackgroundCheckpoints(): () => Promise<void> {
  return checkpointInBackground(CHECKPOINT_EVERY_MS, (message) => log.warn(`Checkpointing the database's write-ahead log: ${message}`));
}
