import { ResetLinkUnusable, usablePasswordReset, type ResetUnusableReason } from "../access/passwordResets";
import { getRealm } from "../db/realm";
import { read } from "../db/transaction";
import { now } from "../model/clock";

/** What the reset link's page needs to show for a token. */
export type PasswordResetView =
  | { usable: true; realmName: string; email: string; fullName: string }
  | { usable: false; realmName: string; reason: ResetUnusableReason };

export function viewPasswordReset(token: string): Promise<PasswordResetView> {
  return read(async (db): Promise<PasswordResetView> => {
    const realmName = (await getRealm(db)).name;
    try {
      const { user } = await usablePasswordReset(db, token, now());
      return { usable: true, realmName, email: user.deliveryEmail ?? user.email, fullName: user.fullName };
    } catch (error) {
      if (error instanceof ResetLinkUnusable) return { usable: false, realmName, reason: error.reason };
      throw error;
    }
  });
}
