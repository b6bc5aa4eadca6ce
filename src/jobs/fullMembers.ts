import { promoteFullMembers } from "../actions/fullMembers";
import { runRepeatedly } from "./repeating";

/**
 * Members become full members once their accounts are waiting_period_threshold days old
 * (actions/fullMembers.ts); this notices it, at start and then every `everySeconds`.
 */
export function startFullMemberPromotion(everySeconds = 600): () => Promise<void> {
  return runRepeatedly("Full member promotion", everySeconds, () => promoteFullMembers());
}
