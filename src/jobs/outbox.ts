import type { Config } from "../config";
import { countPendingOutbox, onOutboxQueued } from "../db/outbox";
import { read } from "../db/transaction";
import { log } from "../log";
import { effectiveSmtp } from "../reads/smtpSettings";
import { configureMail } from "../outbox/mail";
import { heldKinds, nudgeOutbox, pruneOutbox, startOutboxRunner, stopOutboxRunner } from "../outbox/runner";

const PRUNE_EVERY_MS = 24 * 3600 * 1000;

/**
 * The outbox sender (outbox/runner.ts): nudged after every commit that queued an item, swept on
 * an interval for retries and paused destinations that came due, and run once at start for what
 * was queued or came due while the server was down. A plain setInterval, since tests sweep more
 * than once a second.
 */
export function startOutboxSender(config: Config): { stop: () => Promise<void> } {
  configureMail(config.smtp, config.outboxMailConcurrency);
  startOutboxRunner({ retryBaseSeconds: config.outboxRetryBaseSeconds, retryMaxSeconds: config.outboxRetryMaxSeconds, maxAttempts: config.outboxMaxAttempts });
  onOutboxQueued(() => void nudgeOutbox());
  let prunedAt = 0;
  const sweep = async () => {
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      try {
        await pruneOutbox();
      } catch (error) {
        log.error(`outbox: deleting finished items failed: ${(error as Error)?.stack ?? error}`);
      }
    }
    void nudgeOutbox();
  };
  void sweep();
  const timer = setInterval(() => void sweep(), Math.max(100, config.outboxSweepSeconds * 1000));
  timer.unref?.();
  const stop = () => {
    clearInterval(timer);
    onOutboxQueued(null);
    return stopOutboxRunner();
  };
  return { stop };
}

/**
 * Says at start how e-mail goes out (or that it waits in the outbox). Every process says it,
 * the nodes of a cluster too, though one of them sends (jobs/leader.ts).
 */
export function announceMailSettings(config: Config): Promise<void> {
  configureMail(config.smtp, config.outboxMailConcurrency);
  return announceMail().catch((error) => log.error(`outbox: reading the mail settings failed: ${(error as Error)?.stack ?? error}`));
}

async function announceMail() {
  const waiting = await read((db) => countPendingOutbox(db));
  const held = new Set<string>(await heldKinds());
  const mails = [...waiting].filter(([kind]) => held.has(kind)).reduce((sum, [, count]) => sum + count, 0);
  const effective = await effectiveSmtp();
  if (effective) {
    const { host, port, security, from } = effective.settings;
    log.info(`E-mail goes out through ${host}:${port} (${security}) from ${from}${effective.source === "database" ? " (set in the admin console)" : ""}`);
  } else {
    log.warn(`No SMTP server configured (PARLEY_SMTP_HOST): e-mails are kept in the outbox${mails ? ` (${mails} waiting)` : ""} and sent once one is configured (PARLEY_SMTP_* and a restart, or the admin console's Server section)`);
  }
}
