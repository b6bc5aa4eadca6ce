import type { Invite } from "../db/invites";

/** An invitation as GET /invites shows it (the reference's Invite object). */
export interface ApiInvite {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invited_as: number;
  notify_referrer_on_join: boolean;
  is_multiuse: boolean;
  /** E-mail invitations only. */
  email?: string;
  /** Reusable links only. */
  link_url?: string;
}

/** Where an invitation's key is accepted: one page for both kinds (web/invite/). */
export const invitationLink = (realmUrl: string, key: string) => `${realmUrl.replace(/\/+$/, "")}/join/${key}/`;

export function inviteToApi(invite: Invite, realmUrl: string): ApiInvite {
  const shown: ApiInvite = {
    id: invite.id,
    invited_by_user_id: invite.invitedById,
    invited: invite.createdAt,
    expiry_date: invite.expiresAt,
    invited_as: invite.invitedAs,
    notify_referrer_on_join: invite.notifyReferrerOnJoin,
    is_multiuse: invite.isMultiuse,
  };
  if (invite.isMultiuse) shown.link_url = invitationLink(realmUrl, invite.key);
  else shown.email = invite.email ?? "";
  return shown;
}
