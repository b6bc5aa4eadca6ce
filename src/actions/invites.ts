import {
  accessInviteToManage,
  checkInviteAs,
  checkInviteChannels,
  checkInviteGroups,
  inviteAudience,
  requireInvitePermission,
} from "../access/invites";
import { insertInvite, overdueInvites, setInviteStatus, type Invite } from "../db/invites";
import { enqueueOutbox } from "../db/outbox";
import { getRealm } from "../db/realm";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import { findUserByEmail, normalizeEmail, type User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { now } from "../model/clock";
import { randomToken } from "../model/secrets";
import { invitationLink } from "../shapes/invites";

/**
 * Creating, revoking, resending and expiring invitations (spec 4.8, 4.12, 2.10, 3). An e-mail
 * invitation queues its mail in the durable outbox inside the same transaction; with no mail
 * server configured, the links are handed to the inviter in the answer instead (and the mail
 * still waits in the outbox, sent if mail is set up while the invitation is usable).
 */

interface InvitationSettings {
  /** Validity when the request names none (INVITATION_LINK_VALIDITY_MINUTES). */
  defaultValidityMinutes: number;
  /** Whether invitation e-mails can go out now. */
  mailConfigured: () => boolean | Promise<boolean>;
}

let settings: InvitationSettings = { defaultValidityMinutes: 14_400, mailConfigured: () => false };

/** Set once at start (app.ts startBackground, and the CLI). */
export function configureInvitations(next: InvitationSettings) {
  settings = next;
}

export const invitationMailConfigured = () => settings.mailConfigured();

/** At most this many addresses per request, so one request cannot queue unbounded mail. */
export const MAX_INVITEES_PER_REQUEST = 100;
/** The longest explicit validity accepted: ten years. */
const MAX_VALIDITY_MINUTES = 10 * 366 * 24 * 60;

export interface InvitationOptions {
  /** undefined: the server default; null: never expires. */
  expiresInMinutes: number | null | undefined;
  inviteAs: number;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
}

function expiryOf(expiresInMinutes: number | null | undefined, at: number): number | null {
  if (expiresInMinutes === null) return null;
  // The server setting may be a fraction of a minute (tests); requests name whole minutes.
  if (expiresInMinutes === undefined) return at + Math.max(1, Math.round(settings.defaultValidityMinutes * 60));
  if (!Number.isInteger(expiresInMinutes) || expiresInMinutes < 1 || expiresInMinutes > MAX_VALIDITY_MINUTES) {
    throw badRequest(`Invalid invite_expires_in_minutes: use a whole number of minutes from 1 to ${MAX_VALIDITY_MINUTES}, or null for never.`);
  }
  return at + expiresInMinutes * 60;
}

/** The checks both kinds share, in the reference's order: who, which role, then where to. */
async function checkOptions(tx: Tx, actor: User, options: InvitationOptions, multiuse: boolean, beforeTargets?: () => void) {
  await requireInvitePermission(tx, actor, multiuse);
  const role = checkInviteAs(actor, options.inviteAs);
  beforeTargets?.();
  const streamIds = await checkInviteChannels(tx, actor, options.streamIds);
  const groupIds = await checkInviteGroups(tx, actor, options.groupIds);
  return { role, streamIds, groupIds };
}

async function storeInvite(tx: Tx, actor: User, options: InvitationOptions, checked: Awaited<ReturnType<typeof checkOptions>>, email: string | null, at: number): Promise<Invite> {
  return insertInvite(tx, {
    isMultiuse: email === null,
    email,
    key: randomToken(24),
    invitedById: actor.id,
    invitedAs: checked.role,
    streamIds: checked.streamIds,
    groupIds: checked.groupIds,
    includeRealmDefaultSubscriptions: options.includeRealmDefaultSubscriptions,
    notifyReferrerOnJoin: options.notifyReferrerOnJoin,
    createdAt: at,
    expiresAt: expiryOf(options.expiresInMinutes, at),
  });
}

async function announce(tx: Tx, invite: Pick<Invite, "invitedById">) {
  tx.emit({ type: "invites_changed" }, await inviteAudience(tx, invite));
}

async function queueInvitationMail(tx: Tx, inviter: User, invite: Invite, at: number) {
  const realm = await getRealm(tx);
  await enqueueOutbox(
    tx,
    {
      kind: "invitation_email",
      payload: {
        invite_id: invite.id,
        to: invite.email!,
        inviter_name: inviter.fullName,
        realm_name: realm.name,
        realm_url: realm.url,
        link: invitationLink(realm.url, invite.key),
        expires_at: invite.expiresAt,
      },
    },
    at,
  );
}

// A plain shape check: the invitee proves the address by receiving the mail.
const EMAIL_ADDRESS = /^[^\s@,;<>()"]+@[^\s@,;<>()"]+$/;
const looksLikeEmail = (address: string) => address.length <= 254 && EMAIL_ADDRESS.test(address) && !address.endsWith(".");

/** Addresses as the spec takes them: separated by commas or newlines, blanks ignored. */
export const splitInviteeEmails = (raw: string) =>
  raw
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== "");

type Skipped = [address: string, reason: string, deactivated: boolean];

export interface EmailInvitesResult {
  /** Present when no mail server is configured: address → link, for the inviter to pass on. */
  invite_links?: Record<string, string>;
}

/**
 * POST /invites. Invalid addresses refuse the whole request (nothing sent, as the reference
 * does); addresses that already have an account are skipped and the rest invited, answered
 * with INVITATION_FAILED naming the skipped ones.
 */
export async function inviteByEmail(actor: User, rawEmails: string, options: InvitationOptions): Promise<EmailInvitesResult> {
  const handLinks = !(await settings.mailConfigured());
  const at = now();
  const outcome = await write(async (tx) => {
    let addresses: string[] = [];
    const checked = await checkOptions(tx, actor, options, false, () => {
      addresses = [...new Set(splitInviteeEmails(rawEmails).map(normalizeEmail))];
      if (addresses.length === 0) throw badRequest("You must specify at least one email address.");
      if (addresses.length > MAX_INVITEES_PER_REQUEST) throw badRequest(`Too many addresses: invite at most ${MAX_INVITEES_PER_REQUEST} at a time.`);
    });
    const invalid = addresses.filter((address) => !looksLikeEmail(address));
    if (invalid.length > 0) {
      throw new ApiError("INVITATION_FAILED", "Some of those addresses are not valid e-mail addresses, so we didn't send any invitations.", failureFields(invalid.map((address) => [address, "Invalid address.", false]), false));
    }
    const skipped: Skipped[] = [];
    const links: Record<string, string> = {};
    let announced = false;
    for (const address of addresses) {
      const existing = await findUserByEmail(tx, address);
      if (existing) {
        skipped.push(existing.isActive ? [address, "Already has an account.", false] : [address, "Account has been deactivated.", true]);
        continue;
      }
      const invite = await storeInvite(tx, actor, options, checked, address, at);
      await queueInvitationMail(tx, actor, invite, at);
      links[address] = invitationLink((await getRealm(tx)).url, invite.key);
      if (!announced) await announce(tx, invite);
      announced = true;
    }
    return { skipped, links };
  });
  const linkFields = handLinks ? { invite_links: outcome.links } : {};
  if (outcome.skipped.length > 0) {
    const sent = Object.keys(outcome.links).length > 0;
    const message = sent
      ? "Some of those addresses are already using Parley, so we didn't send them an invitation. We did send invitations to everyone else!"
      : "We weren't able to invite anyone.";
    throw new ApiError("INVITATION_FAILED", message, { ...failureFields(outcome.skipped, sent), ...linkFields });
  }
  return linkFields;
}

/** The extra fields of INVITATION_FAILED (spec 7). Parley has no daily or license limit. */
const failureFields = (errors: Skipped[], sent: boolean) => ({ errors, sent_invitations: sent, daily_limit_reached: false, license_limit_reached: false });

/** POST /invites/multiuse: a reusable link, answered with its URL. */
export function createInviteLink(actor: User, options: Omit<InvitationOptions, "notifyReferrerOnJoin">): Promise<{ invite_link: string }> {
  const at = now();
  return write(async (tx) => {
    const full = { ...options, notifyReferrerOnJoin: false };
    const invite = await storeInvite(tx, actor, full, await checkOptions(tx, actor, full, true), null, at);
    await announce(tx, invite);
    return { invite_link: invitationLink((await getRealm(tx)).url, invite.key) };
  });
}

/** DELETE /invites/{id} and /invites/multiuse/{id}. */
export async function revokeInvite(actor: User, inviteId: number, multiuse: boolean) {
  const at = now();
  await write(async (tx) => {
    const invite = await accessInviteToManage(tx, actor, inviteId, multiuse, at);
    await setInviteStatus(tx, invite.id, "revoked");
    await announce(tx, invite);
  });
}

/** POST /invites/{id}/resend: the same link, mailed again; the expiry stays as it was. */
export async function resendInvite(actor: User, inviteId: number) {
  const at = now();
  await write(async (tx) => {
    const invite = await accessInviteToManage(tx, actor, inviteId, false, at);
    await queueInvitationMail(tx, actor, invite, at);
    await announce(tx, invite);
  });
}

/**
 * The expiry sweep: pending invitations past their expiry become "expired", in batches, and
 * their audiences are told. Acceptance refuses them by time anyway; this keeps the status
 * honest for lists and tells clients showing pending invitations.
 */
export async function expireOverdueInvitations(at = now(), batchSize = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await write(async (tx) => {
      const overdue = await overdueInvites(tx, at, batchSize);
      const audience = new Set<number>();
      for (const invite of overdue) {
        await setInviteStatus(tx, invite.id, "expired");
        for (const id of await inviteAudience(tx, invite)) audience.add(id);
      }
      if (audience.size > 0) tx.emit({ type: "invites_changed" }, [...audience]);
      return overdue.length;
    });
    total += count;
    if (count < batchSize) return total;
  }
}
