import type { Realm } from "../../db/realm";
import type { User } from "../../db/users";
import type { QueueSpec } from "../spec";

/**
 * What every register section is built from. It lives apart from index.ts, which lists the
 * sections, so that the section files import this and index.ts alone imports them.
 */

export interface StateContext {
  realm: Realm;
  spec: QueueSpec;
  includeSubscribers: boolean;
  presenceHistoryLimitDays: number;
}

/** A signed-in client's context: `viewer` is read in the same transaction as the state. */
export interface UserStateContext extends StateContext {
  viewer: User;
}

/** A section's part of the state, by field name. */
export type Fields = Record<string, unknown>;
