import { sql } from "drizzle-orm";
import { canAccessUser } from "../access/userAccess";
import { accessUser } from "../access/users";
import { listUnread } from "../db/messageState";
import { deleteMute, insertMute, isMuted, listMutedUsers } from "../db/mutedUsers";
import { getRealm } from "../db/realm";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { now } from "../model/clock";
import { changeFlags } from "./messageFlags";

/**
 * Muted users (reference: mute-user, unmute-user). Muting marks the muted user's messages read
 * for the muter, those already sent here and those sent later at the send
 * (messages/mutedSenders.ts). Anyone the caller may see can be muted, bots and deactivated
 * users included, as in the reference; unmuting leaves read messages read.
 */

/** The user to mute or unmute: unknown IDs and users the caller may not see are "No such user". */
function accessMutable(tx: Tx, user: User, userId: number): User {
  const target = accessUser(tx, userId, { allowDeactivated: true, allowBots: true });
  if (!canAccessUser(tx, user, target, getRealm(tx))) throw badRequest("No such user");
  return target;
}

const emitMutedUsers = (tx: Tx, user: User) => tx.emit({ type: "muted_users", muted_users: listMutedUsers(tx, user.id) }, [user.id]);

export function muteUser(user: User, mutedUserId: number) {
  if (mutedUserId === user.id) throw badRequest("Cannot mute self");
  write((tx) => {
    const target = accessMutable(tx, user, mutedUserId);
    if (isMuted(tx, user.id, target.id)) throw badRequest("User already muted");
    insertMute(tx, user.id, target.id, now());
    // Oldest first, as the reference lists them; the event is the usual update_message_flags.
    const unread = listUnread(tx, user.id, { where: sql`m.sender_id = ${target.id}` }).reverse();
    changeFlags(tx, user, unread, "add", "read");
    emitMutedUsers(tx, user);
  });
}

export function unmuteUser(user: User, mutedUserId: number) {
  write((tx) => {
    const target = accessMutable(tx, user, mutedUserId);
    if (!isMuted(tx, user.id, target.id)) throw badRequest("User is not muted");
    deleteMute(tx, user.id, target.id);
    emitMutedUsers(tx, user);
  });
}
