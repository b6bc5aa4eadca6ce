import { getRealm } from "../db/realm";
import { read } from "../db/transaction";
import { findUserById } from "../db/users";
import type { UserSettings } from "../model/userSettings";
import { type ApiUserGroup, listUserGroupsForApi } from "../shapes/userGroups";
import { type FilterContext, type Lookups, shapeStore } from "./filters";

/**
 * The current state some event filters need (filters.ts, FilterContext), read by publish
 * (registry.ts) before it delivers, in one read() after the commit that emitted the events:
 * filters run synchronously for every queue, so they answer from what was read here.
 */

/** What publish read for the filters' lookups (filters.ts, Lookups). */
export interface LookedUp {
  emptyTopicDisplayName?: string;
  userSettings: Map<number, UserSettings | undefined>;
  userGroups: Map<number, ApiUserGroup | undefined>;
}

export const NOTHING_LOOKED_UP: LookedUp = { userSettings: new Map(), userGroups: new Map() };

/** Reads what the filters will look up, in one snapshot taken after the commit that emitted the events. */
export function lookUp(wanted: Lookups): Promise<LookedUp> {
  return read(async (db) => {
    const looked: LookedUp = { userSettings: new Map(), userGroups: new Map() };
    if (wanted.emptyTopicDisplayName) looked.emptyTopicDisplayName = (await getRealm(db)).settings.empty_topic_display_name;
    for (const userId of wanted.userSettings) looked.userSettings.set(userId, (await findUserById(db, userId))?.settings);
    if (wanted.userGroups.size > 0) {
      for (const groupId of wanted.userGroups) looked.userGroups.set(groupId, undefined);
      for (const group of await listUserGroupsForApi(db, { includeDeactivated: true, ids: [...wanted.userGroups] })) looked.userGroups.set(group.id, group);
    }
    return looked;
  });
}

/** The filters' context over what was read for them; a lookup not read (or whose read failed) fails its delivery. */
export function filterContext(looked: LookedUp): FilterContext {
  const notRead = (what: string): never => {
    throw new Error(`${what} was not read for this publish`);
  };
  return {
    emptyTopicDisplayName: () => looked.emptyTopicDisplayName ?? notRead("the empty topic's display name"),
    userSettings: (userId) => (looked.userSettings.has(userId) ? looked.userSettings.get(userId) : notRead(`the settings of user ${userId}`)),
    userGroup: (groupId) => (looked.userGroups.has(groupId) ? looked.userGroups.get(groupId) : notRead(`user group ${groupId}`)),
    sharedShape: shapeStore(),
  };
}
