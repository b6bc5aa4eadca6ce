import { findPasswordResetByTokenHash, type PasswordReset } from "../db/passwordResets";
import { getRealm } from "../db/realm";
import type { Reader } from "../db/types";
import { findUserById, type User } from "../db/users";
import { badRequest, ownerRequired } from "../http/errors";
import { hashToken } from "../http/session";
import { isOwner } from "../model/roles";
import { accessUser, requireAdministrator } from "./users";

/**
 * Who may reset whose password, and whether a reset link still works. Administrators reset
 * other people's passwords, owners' only if they are owners themselves (an administrator must
 * not be able to take over an owner's account); nobody resets their own here (they know it,
 * and the settings page changes it), and bots have API keys, not passwords.
 */

export async function accessPasswordResetTarget(db: Reader, actor: User, userId: number): Promise<User> {
  requireAdministrator(actor, "reset passwords");
  const target = await accessUser(db, userId, { allowDeactivated: true });
  if (target.isBot) throw badRequest("Bots have no password: they use their API key.");
  if (!target.isActive) throw badRequest("This account is deactivated; reactivate it first.");
  if (target.id === actor.id) throw badRequest("Change your own password in your settings.");
  if (isOwner(target.role) && !isOwner(actor.role)) throw ownerRequired();
  return target;
}

/** The account whose password a person may reset for themselves by e-mail, if any. */
export const selfServiceResetAccount = (user: User | undefined): User | undefined => (user && user.isActive && !user.isBot ? user : undefined);

/** Why a link does not work: the page says so plainly (404 for unknown, 410 for the rest). */
export type ResetUnusableReason = "unknown" | "used" | "expired" | "unavailable";

export class ResetLinkUnusable extends Error {
  constructor(readonly reason: ResetUnusableReason) {
    super(`This password reset link is ${reason}.`);
  }
}

/** The reset a token names and its account, or why it cannot be used now. */
export async function usablePasswordReset(db: Reader, token: string, at: number): Promise<{ reset: PasswordReset; user: User }> {
  const reset = await findPasswordResetByTokenHash(db, hashToken(token));
  if (!reset) throw new ResetLinkUnusable("unknown");
  if (reset.usedAt !== null) throw new ResetLinkUnusable("used");
  if (reset.expiresAt <= at) throw new ResetLinkUnusable("expired");
  const user = await findUserById(db, reset.userId);
  // Deactivated since the link was made, or the whole organization closed: no way back in here.
  if (!user?.isActive || user.isBot || (await getRealm(db)).deactivated) throw new ResetLinkUnusable("unavailable");
  return { reset, user };
}
