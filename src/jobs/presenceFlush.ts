import { Cron } from "croner";
import { loadPresences, saveUnsavedPresences } from "../db/presenceStore";
import { log } from "../log";

/**
 * Writes presence, which reports change in memory only (db/presenceStore.ts), to the database
 * every `everySeconds` and once more at a clean stop, after the server stopped taking
 * requests; a crash forgets at most the last interval. The stored presence is read at start,
 * so the first listings after a restart already show who was online.
 */
export function startPresenceFlush(everySeconds: number): () => Promise<void> {
  loadPresences().catch((error: unknown) => log.error(`Loading presence failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  const save = async () => {
    try {
      await saveUnsavedPresences();
    } catch (error) {
      log.error(`Saving presence failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };
  const job = new Cron("* * * * * *", { interval: Math.max(1, Math.round(everySeconds)), protect: true, unref: true }, save);
  return async () => {
    job.stop();
    await save();
  };
}
