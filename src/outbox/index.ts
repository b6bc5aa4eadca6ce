import { accountDeactivatedEmail } from "./accountDeactivatedEmail";
import type { Deliverer, OutboxKind } from "./deliverers";
import { invitationEmail } from "./invitationEmail";
import { passwordResetEmail } from "./passwordResetEmail";
import { outgoingWebhook } from "./webhooks";
import { messageNotifications, webPush } from "./webPush";
import { missedMessageEmail } from "./missedMessageEmail";

/**
 * The deliverer of every outbox kind (the contract is in deliverers.ts). The type makes a new
 * kind in db/outbox.ts fail to compile until it has its line here.
 */
export const deliverers: { [K in OutboxKind]: Deliverer<K> } = {
  account_deactivated_email: accountDeactivatedEmail,
  invitation_email: invitationEmail,
  message_notifications: messageNotifications,
  missed_message_email: missedMessageEmail,
  outgoing_webhook: outgoingWebhook,
  password_reset_email: passwordResetEmail,
  web_push: webPush,
};
