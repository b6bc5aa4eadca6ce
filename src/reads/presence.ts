import { canAccessUser } from "../access/userAccess";
import { accessUser, accessUserByEmail } from "../access/users";
import { storedPresence } from "../db/presenceStore";
import { getRealm, realmHost } from "../db/realm";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { presenceListing } from "../events/state/presence";
import { badRequest } from "../http/errors";
import { now } from "../model/clock";
import { DEFAULT_PRESENCE_HISTORY_DAYS, presenceTiming } from "../model/presence";
import { legacyPresence, presenceTimes } from "../shapes/presence";

/** GET /realm/presence: everyone's presence in the legacy format, keyed by API e-mail, as the reference answers it. */
export function getRealmPresence(viewer: User) {
  return read(async (db) => {
    const { presences } = await presenceListing(db, viewer, await getRealm(db), { slim: false, historyDays: DEFAULT_PRESENCE_HISTORY_DAYS });
    return { presences, server_timestamp: Date.now() / 1000 };
  });
}

/**
 * GET /users/{user_id_or_email}/presence: one active human's presence without the client and
 * pushable fields, with "aggregated" saying "offline" once its time is past the offline
 * threshold, as the reference does for embedding elsewhere.
 */
export function getUserPresence(viewer: User, idOrEmail: string) {
  return read(async (db) => {
    const realm = await getRealm(db);
    const target = /^\d+$/.test(idOrEmail) ? await accessUser(db, Number(idOrEmail)) : await accessUserByEmail(db, viewer, idOrEmail, realmHost(realm));
    if (!target.isActive) throw badRequest("No such user");
    if (target.isBot) throw badRequest("Presence is not supported for bot users.");
    if (!(await canAccessUser(db, viewer, target, realm))) throw badRequest("Insufficient permission");
    const entry = storedPresence(target.id);
    if (!entry) throw badRequest(`No presence data for ${idOrEmail}`);
    const { website, aggregated } = legacyPresence(presenceTimes(entry, target));
    const offline = now() - aggregated.timestamp > presenceTiming().offlineThresholdSeconds;
    return {
      website: { status: website.status, timestamp: website.timestamp },
      aggregated: { status: offline ? ("offline" as const) : aggregated.status, timestamp: aggregated.timestamp },
    };
  });
}
