/**
 * The set of invitations changed (created, revoked, used, expired): clients showing pending
 * invitations refetch GET /invites. Sent to organization administrators and the creator of
 * the changed invitation, as in the reference.
 */
export interface InvitesChangedEvent {
  type: "invites_changed";
}
