import { canAccessUser } from "../access/userAccess";
import { accessUser } from "../access/users";
import { deleteMute, insertMute, isMuted, listMutedUsers } from "../db/mutedUsers";
import { getRealm } from "../db/realm";
import { read, write } from "../db/transaction";
import type { Reader, Tx } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { now } from "../model/clock";
import { markSenderRead } from "./messageFlags";

/**
 * Muted users (reference: mute-user, unmute-user). Muting marks the muted user's messages read
 * for the muter, those already sent here and those sent later at the send
 * (messages/mutedSenders.ts). Anyone the caller may see can be muted, bots and deactivated
 * users included, as in the reference; unmuting leaves read messages read.
 */

/** The user to mute or unmute: unknown IDs and users the caller may not see are "No such user". */
async function accessMutable(db: Reader, user: User, userId: number): Promise<User> {
  const target = await accessUser(db, userId, { allowDeactivated: true, allowBots: true });
  if (!(await canAccessUser(db, user, target, await getRealm(db)))) throw badRequest("No such user");
  return target;
}

const emitMutedUsers = async (tx: Tx, user: User) => tx.emit({ type: "muted_users", muted_users: await listMutedUsers(tx, user.id) }, [user.id]);

/**
 * Muting someone marks what they sent read, as the reference does: first (in slices, there may
 * be thousands), then the mute itself, after which their new messages arrive read. Should the
 * marking stop half way, asking again finds the rest.
 */
export async function muteUser(user: User, mutedUserId: number) {
  if (mutedUserId === user.id) throw badRequest("Cannot mute self");
  const target = await read(async (db) => {
    const target = await accessMutable(db, user, mutedUserId);
    if (await isMuted(db, user.id, target.id)) throw badRequest("User already muted");
    return target;
  });
  await markSenderRead(user, target.id);
  await write(async (tx) => {
    await accessMutable(tx, user, mutedUserId);
    if (await isMuted(tx, user.id, target.id)) throw badRequest("User already muted");
    await insertMute(tx, user.id, target.id, now());
    await emitMutedUsers(tx, user);
  });
  // What they sent while the rest was being marked.
  await markSenderRead(user, target.id);
}

export async function unmuteUser(user: User, mutedUserId: number) {
  await write(async (tx) => {
    const target = await accessMutable(tx, user, mutedUserId);
    if (!(await isMuted(tx, user.id, target.id))) throw badRequest("User is not muted");
    await deleteMute(tx, user.id, target.id);
    await emitMutedUsers(tx, user);
  });
}
