import type { Config } from "../config";
import { startInviteExpiry } from "./inviteExpiry";
import { startOutboxSender } from "./outbox";
import { startQueueCollection } from "./queueCollection";
import { startScheduledDelivery } from "./scheduledDelivery";

/**
 * Every timer the server runs, started and stopped here and nowhere else, so one file answers
 * "what runs in the background?". Each job is a thin shim: the work lives in the action or
 * registry it calls. Outbox senders and scheduled deliveries join this list.
 */
export function startJobs(config: Config): { stop(): void } {
  const stops = [startQueueCollection(config.queueTimeoutSeconds)];
  stops.push(startOutboxSender(config));
  stops.push(startInviteExpiry(config.inviteExpirySweepSeconds));
  stops.push(startScheduledDelivery(config.scheduledCheckSeconds));
  return {
    stop() {
      for (const stop of stops) stop();
    },
  };
}
