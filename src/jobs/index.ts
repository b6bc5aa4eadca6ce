import { startMissedMessageEmails } from "./missedMessageEmails";
import type { Config } from "../config";
import { dialect } from "../db/dialect";
import { startScheduledBackups } from "./backups";
import { startCacheBackstop } from "./cacheBackstop";
import { whileLeading } from "./leader";

/** How often a cluster's node looks for changes made outside Parley (see startJobs). */
const CLUSTER_CHANGE_CHECK_MS = 10_000;
import { startBackgroundCheckpoints } from "./checkpoints";
import { startEventLoopLagSampling } from "./eventLoopLag";
import { startFullMemberPromotion } from "./fullMembers";
import { startInviteExpiry } from "./inviteExpiry";
import { startMemoryRelease } from "./memoryRelease";
import { announceMailSettings, startOutboxSender } from "./outbox";
import { startPresenceFlush } from "./presenceFlush";
import { startQueueCollection } from "./queueCollection";
import { startScheduledDelivery } from "./scheduledDelivery";
import { startSearchIndexMerging } from "./searchIndexMerge";
import { startSessionExpiry } from "./sessionExpiry";

/**
 * Every timer the server runs, started and stopped here and nowhere else, so one file answers
 * "what runs in the background?". Each job is a thin shim: the work lives in the action or
 * registry it calls.
 */
export function startJobs(config: Config): { stop(): Promise<void>; announced: Promise<void> } {
  const stops: Array<() => void | Promise<void>> = [startQueueCollection(config.queueTimeoutSeconds)];
  const announced = announceMailSettings(config);
  // Work that must happen once, not once per node: in a cluster, one node at a time runs it.
  stops.push(
    whileLeading(() => {
      const outbox = startOutboxSender(config);
      const leaderStops = [outbox.stop, startInviteExpiry(config.inviteExpirySweepSeconds), startScheduledDelivery(config.scheduledCheckSeconds), startSessionExpiry(), startFullMemberPromotion(), startMissedMessageEmails(config.missedMessageEmailCheckSeconds)];
      return async () => void (await Promise.all(leaderStops.map((stop) => stop())));
    }),
  );
  stops.push(startPresenceFlush(config.presenceFlushSeconds));
  stops.push(startEventLoopLagSampling(config.eventLoopSampleMs));
  // In a cluster every write's invalidation is in the event log, which each node applies in
  // full (gaps read back from the database): the look is left for changes made outside Parley.
  stops.push(startCacheBackstop(config.busUrl ? Math.max(config.changeCheckMs, CLUSTER_CHANGE_CHECK_MS) : config.changeCheckMs));
  // SQLite's own upkeep: its backups of the data dir, WAL checkpoints and FTS5 merges.
  // PostgreSQL does its own (and is backed up with pg_dump).
  if (dialect() === "sqlite") {
    stops.push(startScheduledBackups(config));
    stops.push(startBackgroundCheckpoints());
    stops.push(startSearchIndexMerging(config.searchIndexMergeMs));
  }
  stops.push(startMemoryRelease(config.memoryReleaseSeconds));
  return {
    /** Resolves once what the jobs say at start (how e-mail goes out) has been said. */
    announced,
    /** Stops every timer; resolves when work already under way (a delivery) has ended. */
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
