import { InvitationUnusable, requireInviteListAccess, usableInvitation, type UnusableReason } from "../access/invites";
import { listUsableInvites } from "../db/invites";
import { getRealm } from "../db/realm";
import { read } from "../db/transaction";
import { findUserById, type User } from "../db/users";
import { now } from "../model/clock";
import { isAdministrator } from "../model/roles";
import { type ApiInvite, inviteToApi } from "../shapes/invites";

/** GET /invites: usable invitations the caller may manage (all of them for administrators). */
export function listInvites(viewer: User): Promise<ApiInvite[]> {
  requireInviteListAccess(viewer);
  return read(async (db) => {
    const realmUrl = (await getRealm(db)).url;
    return (await listUsableInvites(db, now(), isAdministrator(viewer.role) ? undefined : viewer.id)).map((invite) => inviteToApi(invite, realmUrl));
  });
}

/** What the invitation page needs to show for a key. */
export type InvitationView =
  | { usable: true; realmName: string; realmUrl: string; email: string | null; inviterName: string }
  | { usable: false; realmName: string; reason: UnusableReason };

export function viewInvitation(key: string): Promise<InvitationView> {
  return read(async (db): Promise<InvitationView> => {
    const realm = await getRealm(db);
    try {
      const invite = await usableInvitation(db, key);
      const inviterName = (await findUserById(db, invite.invitedById))?.fullName ?? "";
      return { usable: true, realmName: realm.name, realmUrl: realm.url, email: invite.email, inviterName };
    } catch (error) {
      if (error instanceof InvitationUnusable) return { usable: false, realmName: realm.name, reason: error.reason };
      throw error;
    }
  });
}
