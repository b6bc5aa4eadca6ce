import { canAccessAllUsers } from "../../access/userAccess";
import { storedPresences } from "../../db/presenceStore";
import { realmHost, type Realm } from "../../db/realm";
import type { Reader } from "../../db/types";
import { listActiveHumanJoinDates, listActiveHumans, type User } from "../../db/users";
import { now as nowSeconds } from "../../model/clock";
import { legacyPresence, modernPresence, presenceTimes } from "../../shapes/presence";
import { canSeeDeliveryEmail, standInEmail } from "../../shapes/users";
import type { UserStateContext } from "./context";

/** What a presence listing is asked for (register, POST /users/me/presence, GET /realm/presence). */
export interface PresenceQuery {
  /** The modern format keyed by user ID; otherwise the legacy one keyed by API e-mail. */
  slim: boolean;
  /** The presence_last_update_id the client already has; undefined when it sent none. */
  lastUpdateId?: number;
  /** Leave out users last connected longer ago than this; 0 lists nobody. */
  historyDays: number;
}

const DAY_SECONDS = 86_400;

/**
 * The presence of every active human the viewer may see (a guest limited by
 * can_access_all_users_group sees only their own, as the reference does with
 * CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE), and the newest presence_last_update_id among
 * them. With a positive lastUpdateId only entries changed since are listed, and the history
 * limit no longer applies; with none listed, the answer repeats the client's lastUpdateId, or
 * is -1 (the reference's "no data fetched").
 */
export async function presenceListing(db: Reader, viewer: User, realm: Realm, query: PresenceQuery) {
  const incremental = query.lastUpdateId !== undefined && query.lastUpdateId > 0;
  const since = nowSeconds() - query.historyDays * DAY_SECONDS;
  const listable = (entry: { updateId: number; connectedTime: number }) =>
    incremental ? entry.updateId > query.lastUpdateId! : query.historyDays > 0 && entry.connectedTime >= since;
  const seesEveryone = await canAccessAllUsers(db, viewer, realm);
  const people = await listedPeople(db, query.slim);
  const host = realmHost(realm);
  const presences: Record<string, unknown> = {};
  let lastUpdateId = -1;
  for (const [userId, entry] of storedPresences()) {
    const person = people.get(userId);
    if (!person || !listable(entry) || (!seesEveryone && userId !== viewer.id)) continue;
    const times = presenceTimes(entry, person);
    if (query.slim) presences[String(userId)] = modernPresence(times);
    else presences[canSeeDeliveryEmail(viewer, person as User) ? person.email! : standInEmail(userId, host)] = legacyPresence(times);
    lastUpdateId = Math.max(lastUpdateId, entry.updateId);
  }
  if (lastUpdateId === -1 && query.lastUpdateId !== undefined) lastUpdateId = query.lastUpdateId;
  return { presences, presence_last_update_id: lastUpdateId };
}

type ListedPerson = Pick<User, "id" | "dateJoined"> & Partial<User>;

/** Active humans by ID: bots have no presence and deactivated users are never listed. Addresses only for the legacy format. */
async function listedPeople(db: Reader, slim: boolean): Promise<Map<number, ListedPerson>> {
  const rows: ListedPerson[] = slim ? await listActiveHumanJoinDates(db) : await listActiveHumans(db);
  return new Map(rows.map((row) => [row.id, row]));
}

/** presence: the register section (spec 4.19 slim_presence and presence_history_limit_days). */
export async function presenceState(db: Reader, { viewer, realm, spec, presenceHistoryLimitDays }: UserStateContext) {
  const listing = await presenceListing(db, viewer, realm, { slim: spec.slimPresence, historyDays: presenceHistoryLimitDays });
  return { ...listing, server_timestamp: Date.now() / 1000 };
}
