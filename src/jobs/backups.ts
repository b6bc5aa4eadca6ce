import { Cron } from "croner";
import { join } from "node:path";
import { runScheduledBackup } from "../backup/scheduled";
import type { Config } from "../config";
import { BACKUPS_DIR } from "../db/upgradeBackup";
import { log } from "../log";

/** Backups on the schedule PARLEY_BACKUP_SCHEDULE sets (daily at 03:00 by default). */
export function startScheduledBackups(config: Config): () => Promise<void> {
  if (config.backupSchedule === null) return async () => undefined;
  const directory = config.backupDir ?? join(config.dataDir, BACKUPS_DIR);
  let running: Promise<unknown> | null = null;
  const job = new Cron(config.backupSchedule, { protect: true, unref: true }, async () => {
    await (running = (async () => {
      try {
        await runScheduledBackup(config.dataDir, directory, config.backupKeep);
      } catch (error) {
        // runScheduledBackup records its own failures; this is one it could not even record.
        log.error(`Scheduled backup failed: ${(error as Error).message}`);
      }
    })());
    running = null;
  });
  log.info(`Backups: ${config.backupSchedule === "0 3 * * *" ? "daily at 03:00" : `on the schedule '${config.backupSchedule}'`} into ${directory}, keeping ${config.backupKeep}; next at ${job.nextRun()?.toISOString()}`);
  return async () => {
    job.stop();
    // A stop waits for a backup under way, so no half-written archive is left behind.
    await running;
  };
}
