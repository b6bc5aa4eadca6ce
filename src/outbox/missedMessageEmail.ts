import type { Deliverer } from "./deliverers";
import { mailConfigured, mailRoute, messageIdFor, sendMail } from "./mail";

/** A missed-message e-mail (actions/missedMessageEmails.ts wrote it), with one-click unsubscribe headers (RFC 8058). */
export const missedMessageEmail: Deliverer<"missed_message_email"> = {
  ready: mailConfigured,
  route: mailRoute,
  async deliver(payload, attempt) {
    await sendMail(
      {
        to: payload.to,
        subject: payload.subject,
        text: payload.text,
        html: payload.html,
        headers: { "List-Unsubscribe": `<${payload.unsubscribe_url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      },
      await messageIdFor(attempt),
    );
  },
};
