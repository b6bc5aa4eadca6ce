import { findInviteById, isUsable, type InvitationEmailPayload } from "../db/invites";
import { read } from "../db/transaction";
import type { Deliverer } from "./deliverers";
import { type Mail, mailConfigured, mailRoute, messageIdFor, sendMail } from "./mail";

/**
 * The invitation e-mail (spec 4.8). Checked at delivery: an invitation revoked, used or
 * expired while its mail waited (no mail server yet, or retries) is not mailed at all.
 */
export const invitationEmail: Deliverer<"invitation_email"> = {
  ready: mailConfigured,
  route: mailRoute,
  async deliver(payload, attempt) {
    const invite = await read((db) => findInviteById(db, payload.invite_id));
    if (!invite || !isUsable(invite, Math.floor(Date.now() / 1000))) return;
    await sendMail(invitationMail(payload), await messageIdFor(attempt));
  },
};

const when = (seconds: number) => new Date(seconds * 1000).toUTCString();

export function invitationMail(payload: InvitationEmailPayload): Mail {
  const lines = [
    "Hello,",
    "",
    `${payload.inviter_name} has invited you to join ${payload.realm_name}, a team chat at ${payload.realm_url}.`,
    "",
    "To accept, open this link, choose your name and a password:",
    "",
    payload.link,
    "",
    payload.expires_at === null ? "The link does not expire." : `The link works until ${when(payload.expires_at)}.`,
    "",
    "If you did not expect this invitation, you can ignore this e-mail.",
  ];
  return { to: payload.to, subject: `${payload.inviter_name} invited you to ${payload.realm_name}`, text: `${lines.join("\n")}\n` };
}
