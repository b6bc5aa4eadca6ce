import type { Deliverer } from "./deliverers";
import { type Mail, mailConfigured, mailRoute, messageIdFor, sendMail } from "./mail";

/** The notification an administrator may ask for when deactivating someone (spec 4.16). */
export const accountDeactivatedEmail: Deliverer<"account_deactivated_email"> = {
  ready: mailConfigured,
  route: mailRoute,
  async deliver(payload, attempt) {
    await sendMail(accountDeactivatedMail(payload), await messageIdFor(attempt));
  },
};

interface Payload {
  to: string;
  full_name: string;
  realm_name: string;
  realm_url: string;
  comment: string | null;
}

export function accountDeactivatedMail(payload: Payload): Mail {
  const lines = [
    `Hello ${payload.full_name},`,
    "",
    `Your account ${payload.to} in the ${payload.realm_name} organization at ${payload.realm_url} has been deactivated.`,
  ];
  if (payload.comment !== null) lines.push("", "The administrators provided the following comment:", "", payload.comment);
  lines.push("", "If you think this is a mistake, contact the organization's administrators.");
  return { to: payload.to, subject: `Notification of account deactivation on ${payload.realm_name}`, text: `${lines.join("\n")}\n` };
}
