import { Flag } from "../db/messages";
import { mutersOf } from "../db/mutedUsers";
import type { Reader } from "../db/types";

/**
 * A message from a muted user is read for whoever muted them from the moment it is sent, as
 * in the reference, so it never counts as unread. Its mention and alert word flags stay, as
 * the reference's do. A sender nobody muted costs one map lookup.
 */
export async function markReadForMuters(db: Reader, bits: Map<number, number>, senderId: number, recipientIds: readonly number[]) {
  const muters = await mutersOf(db, senderId);
  if (muters === undefined) return;
  for (const userId of muters) if (recipientIds.includes(userId)) bits.set(userId, (bits.get(userId) ?? 0) | Flag.READ);
}
