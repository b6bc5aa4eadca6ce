/**
 * The rules of presence (issue 14): when a user counts as active, idle or offline, as the
 * reference's server and clients agree on them. Clients ping every `pingIntervalSeconds` and
 * show a user as offline once neither timestamp is within `offlineThresholdSeconds`; register
 * tells them both values. The defaults are the reference's (60 and 140 seconds); tests set
 * short ones through the environment (config.ts).
 */

export interface PresenceTiming {
  pingIntervalSeconds: number;
  offlineThresholdSeconds: number;
}

let timing: PresenceTiming = { pingIntervalSeconds: 60, offlineThresholdSeconds: 140 };

/** Set once at start from the configuration. */
export function configurePresenceTiming(configured: PresenceTiming) {
  timing = { ...configured };
}

export const presenceTiming = (): PresenceTiming => timing;

/**
 * Reports closer together than this do not move a stored timestamp (the reference's
 * PRESENCE_UPDATE_MIN_FREQ_SECONDS, 55 of a 60-second ping): several open clients of one user
 * then change nothing between two rounds of pings, so incremental fetches stay small.
 */
export const minimumUpdateSeconds = () => Math.floor((timing.pingIntervalSeconds * 55) / 60);

/**
 * In the legacy format a user is "active" when their last activity is at most this much older
 * than their last connection (the reference's PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS,
 * 70 of a 140-second threshold), "idle" otherwise.
 */
export const legacyActivityOffsetSeconds = () => Math.floor(timing.offlineThresholdSeconds / 2);

export type PresenceStatus = "active" | "idle";
export const PRESENCE_STATUSES: readonly PresenceStatus[] = ["active", "idle"];

/** What a user's timestamps show at `now`, as clients compute it. */
export type ShownPresence = PresenceStatus | "offline";

/** The two times presence is made of, in UNIX seconds (`activeTime` already defaulted, see shapes/presence.ts). */
export interface PresenceTimes {
  activeTime: number;
  connectedTime: number;
}

export function shownPresence(times: PresenceTimes | undefined, now: number): ShownPresence {
  if (!times) return "offline";
  if (now - times.activeTime <= timing.offlineThresholdSeconds) return "active";
  if (now - times.connectedTime <= timing.offlineThresholdSeconds) return "idle";
  return "offline";
}

/** The default history a presence listing reaches back (spec 8: 14 days). */
export const DEFAULT_PRESENCE_HISTORY_DAYS = 14;
