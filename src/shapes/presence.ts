import type { StoredPresence } from "../db/presenceStore";
import type { User } from "../db/users";
import { legacyActivityOffsetSeconds, type PresenceStatus, type PresenceTimes } from "../model/presence";

/**
 * Presence as clients see it, in the reference's two formats: the modern one (two timestamps,
 * keyed by user ID) and the legacy one (a status and one timestamp per client, keyed by API
 * e-mail), which still has the one client "website" and an "aggregated" copy since the
 * reference stopped telling clients apart.
 */

export interface ModernPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface LegacyClientPresence {
  client: "website";
  status: PresenceStatus;
  timestamp: number;
  pushable: false;
}

export interface LegacyPresence {
  website: LegacyClientPresence;
  aggregated: Omit<LegacyClientPresence, "pushable">;
}

/**
 * The entry's times, a never-active user's activity counted from when they joined: the
 * reference does the same, since the legacy format has no way to say "never".
 */
export const presenceTimes = (entry: StoredPresence, user: Pick<User, "dateJoined">): PresenceTimes => ({
  activeTime: entry.activeTime > 0 ? entry.activeTime : user.dateJoined,
  connectedTime: entry.connectedTime,
});

export const modernPresence = (times: PresenceTimes): ModernPresence => ({ active_timestamp: times.activeTime, idle_timestamp: times.connectedTime });

/** "active" with the activity time when the user was active shortly before they were last connected, else "idle". */
export function legacyClientPresence(times: PresenceTimes): LegacyClientPresence {
  const active = times.activeTime + legacyActivityOffsetSeconds() >= times.connectedTime;
  return { client: "website", status: active ? "active" : "idle", timestamp: active ? times.activeTime : times.connectedTime, pushable: false };
}

export function legacyPresence(times: PresenceTimes): LegacyPresence {
  const website = legacyClientPresence(times);
  const { pushable: _pushable, ...aggregated } = website;
  return { website, aggregated };
}
