import { splitAudienceByAccess } from "../access/userAccess";
import { announcedPresence, noteAnnouncedPresence, putPresence, storedPresence, type StoredPresence } from "../db/presenceStore";
import { getRealm, realmHost } from "../db/realm";
import { read, write } from "../db/transaction";
import type { Tx } from "../db/types";
import { findUserById, type User } from "../db/users";
import { presenceListing } from "../events/state/presence";
import { badRequest } from "../http/errors";
import { now } from "../model/clock";
import {
  DEFAULT_PRESENCE_HISTORY_DAYS,
  minimumUpdateSeconds,
  PRESENCE_STATUSES,
  presenceTiming,
  shownPresence,
  type PresenceStatus,
} from "../model/presence";
import { legacyClientPresence, modernPresence, presenceTimes } from "../shapes/presence";
import { canSeeDeliveryEmail, standInEmail } from "../shapes/users";

/**
 * Presence (issue 14): each client reports its user "active" or "idle" about once a minute
 * (POST /users/me/presence) and gets everyone's presence back. Reports change only the
 * in-memory copy (db/presenceStore.ts); a presence event goes out only when what others would
 * see changes (the user comes online, goes from idle to active, or from active to idle), so
 * the minute-ly pings of every client do not flood the queues. Going offline needs no event:
 * clients see it from the timestamps and server_presence_offline_threshold_seconds.
 */

export interface PresenceInput {
  status: string;
  ping_only?: boolean;
  /** Only for the reference's usage statistics, which Parley does not keep. */
  new_user_input?: boolean;
  slim_presence?: boolean;
  last_update_id?: number;
  history_limit_days?: number;
}

/**
 * The reference's USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS: in larger organizations
 * clients learn presence by polling only, since events about everyone coming online, sent to
 * everyone, grow with the square of the organization. Changes of the presence_enabled
 * setting are always sent.
 */
export const MAX_AUDIENCE_FOR_PRESENCE_EVENTS = 100;

const sharesPresence = (user: User) => !user.isBot && user.settings.presence_enabled !== false;

/**
 * POST /users/me/presence. A user who turned presence_enabled off, or a bot, is not recorded
 * but still gets the listing. The listing is in the modern format when the client sent
 * last_update_id or slim_presence; with ping_only there is none.
 */
export async function updateOwnPresence(user: User, input: PresenceInput) {
  if (!(PRESENCE_STATUSES as readonly string[]).includes(input.status)) throw badRequest(`Invalid status: ${input.status}`);
  if (sharesPresence(user)) await recordReport(user, input.status as PresenceStatus, now());
  if (input.ping_only) return {};
  return await read(async (db) => {
    const viewer = (await findUserById(db, user.id)) ?? user;
    const query = { slim: input.last_update_id !== undefined || input.slim_presence === true, lastUpdateId: input.last_update_id, historyDays: input.history_limit_days ?? DEFAULT_PRESENCE_HISTORY_DAYS };
    const { presences, presence_last_update_id } = await presenceListing(db, viewer, await getRealm(db), query);
    return { presences, server_timestamp: Date.now() / 1000, presence_last_update_id };
  });
}

/** The entry's times after a report at `at`, or null when the report moves neither. */
function reportedTimes(entry: StoredPresence | undefined, status: PresenceStatus, at: number) {
  if (!entry) return { activeTime: status === "active" ? at : 0, connectedTime: at };
  const minimum = minimumUpdateSeconds();
  let { activeTime, connectedTime } = entry;
  if (at - connectedTime > minimum) connectedTime = at;
  if (status === "active" && at - activeTime > minimum) {
    activeTime = at;
    connectedTime = Math.max(connectedTime, at);
  }
  return activeTime === entry.activeTime && connectedTime === entry.connectedTime ? null : { activeTime, connectedTime };
}

async function recordReport(user: User, status: PresenceStatus, at: number) {
  const entry = storedPresence(user.id);
  const before = entry ? shownPresence(presenceTimes(entry, user), at) : "offline";
  const times = reportedTimes(entry, status, at);
  const updated = times ? putPresence(user.id, times) : entry!;
  const after = shownPresence(presenceTimes(updated, user), at);
  // Coming online is always told; otherwise only a change from what was told last.
  if (before !== "offline" && after === (announcedPresence(user.id) ?? before)) return;
  noteAnnouncedPresence(user.id, after);
  // Queued with nothing awaited since the entry changed: a register in between would miss this event.
  await write((tx) => announce(tx, user.id, updated, false));
}

/**
 * PATCH /settings presence_enabled (and the status endpoint's `away`), inside their
 * transaction. Turning it off makes the user look as if last online a few minutes before
 * (the reference does the same), turning it on makes them active now; everyone is told.
 */
export async function presenceSharingChanged(tx: Tx, user: User, enabled: boolean) {
  if (user.isBot) return;
  const at = now();
  const hiddenSince = at - presenceTiming().offlineThresholdSeconds - 120;
  const entry = putPresence(user.id, enabled ? { activeTime: at, connectedTime: at } : { activeTime: hiddenSince, connectedTime: hiddenSince });
  noteAnnouncedPresence(user.id, shownPresence(presenceTimes(entry, user), at));
  await announce(tx, user.id, entry, true);
}

/** One presence event per form of the user's address, to every active user who may see them. */
async function announce(tx: Tx, userId: number, entry: StoredPresence, always: boolean) {
  const user = await findUserById(tx, userId);
  if (!user?.isActive) return;
  const realm = await getRealm(tx);
  const { seeing } = await splitAudienceByAccess(tx, user, realm);
  if (!always && seeing.length > MAX_AUDIENCE_FOR_PRESENCE_EVENTS) return;
  const times = presenceTimes(entry, user);
  // Whole seconds: the reference's type is "number", and the mobile app reads an int.
  const event = { type: "presence" as const, user_id: user.id, server_timestamp: now(), presence: { website: legacyClientPresence(times) }, presences: { [String(user.id)]: modernPresence(times) } };
  const seesAddress = seeing.filter((viewer) => canSeeDeliveryEmail(viewer, user)).map((viewer) => viewer.id);
  const seesStandIn = seeing.filter((viewer) => !canSeeDeliveryEmail(viewer, user)).map((viewer) => viewer.id);
  if (seesAddress.length > 0) tx.emit({ ...event, email: user.email }, seesAddress);
  if (seesStandIn.length > 0) tx.emit({ ...event, email: standInEmail(user.id, realmHost(realm)) }, seesStandIn);
}
