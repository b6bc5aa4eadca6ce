import { accountDeactivatedEmail } from "./accountDeactivatedEmail";
import type { Deliverer, OutboxKind } from "./deliverers";
import { invitationEmail } from "./invitationEmail";
import { passwordResetEmail } from "./passwordResetEmail";
import { outgoingWebhook } from "./webhooks";
import { webPush, webPushMessage } from "./webPush";

/**
 * The deliverer of every outbox kind (the contract is in deliverers.ts). The type makes a new
 * kind in db/outbox.ts fail to compile until it has its line here.
 */
export const deliverers: { [K in OutboxKind]: Deliverer<K> } = {
  account_deactivated_email: accountDeactivatedEmail,
  invitation_email: invitationEmail,
  outgoing_webhook: outgoingWebhook,
  password_reset_email: passwordResetEmail,
  web_push: webPush,
  web_push_message: webPushMessage,
};
