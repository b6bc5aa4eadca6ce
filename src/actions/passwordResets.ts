import { accessPasswordResetTarget, selfServiceResetAccount, usablePasswordReset } from "../access/passwordResets";
import { enqueueOutbox } from "../db/outbox";
import { insertPasswordReset, markPasswordResetUsed, retireUnusedPasswordResets } from "../db/passwordResets";
import { getRealm } from "../db/realm";
import { deleteSessionsOf } from "../db/sessions";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import { findUserByEmail, normalizeEmail, type User, updateUser } from "../db/users";
import { badRequest } from "../http/errors";
import { FailureCounter, addressKey, rateLimited } from "../http/rateLimit";
import { hashToken, newSessionToken } from "../http/session";
import { now } from "../model/clock";
import { invitationMailConfigured } from "./invites";
import { hashPassword } from "./passwordHashing";

/**
 * Password resets: one-time links that let a person choose a new password, e-mailed to them
 * (asked for by themselves or an administrator) or handed over by an administrator. Only the
 * token's SHA-256 is stored; a new link retires the person's older unused ones; using one
 * ends every browser session of the account, so whoever knew the old password is signed out.
 */

/** How long a link works. */
export const RESET_VALIDITY_SECONDS = 24 * 3600;
export const MIN_PASSWORD_LENGTH = 8;

/** Whether reset e-mails can go out now (the same mail server setting as invitations). */
export const resetMailConfigured = () => invitationMailConfigured();

const resetLink = (realmUrl: string, token: string) => `${realmUrl.replace(/\/+$/, "")}/reset/${token}`;

interface NewReset {
  url: string;
  expiresAt: number;
}

/** A fresh link for `target`, retiring older ones; mailed when `mail` names who asked. */
async function createReset(tx: Tx, target: User, createdBy: User, mail: { requestedBy: string | null } | null, at: number): Promise<NewReset> {
  const token = newSessionToken();
  const expiresAt = at + RESET_VALIDITY_SECONDS;
  await retireUnusedPasswordResets(tx, target.id, at);
  const reset = await insertPasswordReset(tx, { tokenHash: hashToken(token), userId: target.id, createdById: createdBy.id, createdAt: at, expiresAt });
  const realm = await getRealm(tx);
  const url = resetLink(realm.url, token);
  if (mail) {
    await enqueueOutbox(
      tx,
      {
        kind: "password_reset_email",
        payload: {
          reset_id: reset.id,
          to: target.deliveryEmail ?? target.email,
          full_name: target.fullName,
          requested_by: mail.requestedBy,
          realm_name: realm.name,
          realm_url: realm.url,
          link: url,
          expires_at: expiresAt,
        },
      },
      at,
    );
  }
  return { url, expiresAt };
}

/**
 * POST /users/{user_id}/password_reset: an administrator mails the person a link, or (without
 * `sendEmail`) gets the link to hand over themselves.
 */
export async function resetPasswordByAdministrator(actor: User, userId: number, sendEmail: boolean): Promise<{ expiry_date: number; reset_url?: string }> {
  if (sendEmail && !(await resetMailConfigured())) throw badRequest("This server cannot send e-mail (no mail server is configured): create a one-time link instead.");
  const at = now();
  return await write(async (tx) => {
    const target = await accessPasswordResetTarget(tx, actor, userId);
    const reset = await createReset(tx, target, actor, sendEmail ? { requestedBy: actor.fullName } : null, at);
    return sendEmail ? { expiry_date: reset.expiresAt } : { expiry_date: reset.expiresAt, reset_url: reset.url };
  });
}

interface ForgotLimits {
  /** Requests naming one address: a flood of mail to one inbox. */
  accounts: FailureCounter;
  /** Requests from one client address: a flood of mail to many. */
  addresses: FailureCounter;
}

const HOUR_MS = 3600 * 1000;
let forgotLimits: ForgotLimits | null = null;

function limits(): ForgotLimits {
  forgotLimits ??= { accounts: new FailureCounter(3, HOUR_MS), addresses: new FailureCounter(10, HOUR_MS) };
  return forgotLimits;
}

/**
 * "Forgot your password?": mails a link if the address belongs to an active person. Unknown
 * addresses are counted and answered exactly alike, so the answer tells nobody whether an
 * account exists. Throws RATE_LIMIT_HIT past the limits.
 */
export async function requestPasswordReset(email: string, clientAddress: string) {
  const account = normalizeEmail(email);
  const from = addressKey(clientAddress);
  const { accounts, addresses } = limits();
  const at = Date.now();
  const waitMs = Math.max(accounts.waitMs(account, at), addresses.waitMs(from, at));
  if (waitMs > 0) throw rateLimited(Math.ceil(waitMs / 1000));
  accounts.recordFailure(account, at);
  addresses.recordFailure(from, at);
  if (!(await resetMailConfigured()) || account === "") return;
  const seconds = now();
  await write(async (tx) => {
    const user = selfServiceResetAccount(await findUserByEmail(tx, account));
    if (!user || (await getRealm(tx)).deactivated) return;
    await createReset(tx, user, user, { requestedBy: null }, seconds);
  });
}

/**
 * The link's form: the new password is set, the link spent along with any other unused ones,
 * and every browser session of the account ended. Returns the account, for a new session.
 */
export async function completePasswordReset(token: string, password: string): Promise<User> {
  if (password.length < MIN_PASSWORD_LENGTH) throw badRequest(`The password is too weak: use at least ${MIN_PASSWORD_LENGTH} characters.`);
  // Hashing is slow and must not hold the write lock; the link is checked again inside.
  const passwordHash = await hashPassword(password);
  const at = now();
  return await write(async (tx) => {
    const { reset, user } = await usablePasswordReset(tx, token, at);
    await updateUser(tx, user.id, { passwordHash });
    await markPasswordResetUsed(tx, reset.id, at);
    await retireUnusedPasswordResets(tx, user.id, at);
    await deleteSessionsOf(tx, user.id, null);
    return { ...user, passwordHash };
  });
}

export { ResetLinkUnusable, type ResetUnusableReason } from "../access/passwordResets";
