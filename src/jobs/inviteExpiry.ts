import { expireOverdueInvitations } from "../actions/invites";
import { runRepeatedly } from "./repeating";

/**
 * Marks invitations past their expiry as expired (actions/invites.ts) and tells those who
 * manage them. Acceptance checks expiry by time on its own, so this only keeps lists and
 * clients current; it runs at start and then every `everySeconds` (jobs/repeating.ts).
 */
export function startInviteExpiry(everySeconds: number): () => Promise<void> {
  return runRepeatedly("Invitation expiry sweep", everySeconds, () => expireOverdueInvitations());
}
