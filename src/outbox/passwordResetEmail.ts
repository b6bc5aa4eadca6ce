import { findPasswordResetById, type PasswordResetEmailPayload } from "../db/passwordResets";
import { read } from "../db/transaction";
import type { Deliverer } from "./deliverers";
import { type Mail, mailConfigured, mailRoute, messageIdFor, sendMail } from "./mail";

/**
 * The password-reset e-mail. Checked at delivery: a link used, replaced by a newer one or
 * expired while its mail waited is not mailed at all.
 */
export const passwordResetEmail: Deliverer<"password_reset_email"> = {
  ready: mailConfigured,
  route: mailRoute,
  async deliver(payload, attempt) {
    const reset = await read((db) => findPasswordResetById(db, payload.reset_id));
    if (!reset || reset.usedAt !== null || reset.expiresAt <= Math.floor(Date.now() / 1000)) return;
    await sendMail(passwordResetMail(payload), await messageIdFor(attempt));
  },
};

const when = (seconds: number) => new Date(seconds * 1000).toUTCString();

export function passwordResetMail(payload: PasswordResetEmailPayload): Mail {
  const asker = payload.requested_by === null ? "Someone (probably you)" : `${payload.requested_by}, an administrator,`;
  const lines = [
    `Hello ${payload.full_name},`,
    "",
    `${asker} asked for a new password for your account ${payload.to} in ${payload.realm_name} (${payload.realm_url}).`,
    "",
    "To choose a new password, open this link:",
    "",
    payload.link,
    "",
    `The link works once, until ${when(payload.expires_at)}. Choosing a new password signs you out everywhere.`,
    "",
    "If you did not expect this, you can ignore this e-mail: your password stays as it is.",
  ];
  return { to: payload.to, subject: `Reset your password for ${payload.realm_name}`, text: `${lines.join("\n")}\n` };
}
