import { Elysia, t } from "elysia";
import { isUnsubscribeToken, unsubscribeFromMissedMessageEmails } from "../../actions/missedMessageEmails";
import { requestLimits } from "../../http/requestLimits";
import { findOrganization } from "../../reads/organization";
import { html, htmlResponse } from "../html";
import { layout } from "../layout";

/**
 * The unsubscribe link of missed-message e-mails. Opening it (GET) asks first, since mail
 * scanners open links on their own; the button, or a mail client's one-click request (RFC 8058:
 * a POST with List-Unsubscribe=One-Click), turns the e-mails off. The signed token is all the
 * authority needed: no session, so no sign-in.
 */

const TokenParams = t.Object({ token: t.String({ maxLength: 80 }) });
const PATH = "/accounts/unsubscribe/missed_messages";

const invalid = (realmName: string) =>
  htmlResponse(layout(`Unsubscribe · ${realmName}`, html`<h1>This link does not work</h1><p>It may be incomplete: copy the whole link from the e-mail. You can also turn these e-mails off in your notification settings.</p><a class="secondary" href="/">Open ${realmName}</a>`), 404);

export const unsubscribePageRoutes = new Elysia()
  .use(requestLimits)
  .get(
    `${PATH}/:token`,
    async ({ params }) => {
      const realmName = (await findOrganization())?.name ?? "Parley";
      if (!(await isUnsubscribeToken(params.token))) return invalid(realmName);
      return htmlResponse(
        layout(
          `Unsubscribe · ${realmName}`,
          html`<h1>Stop e-mails about missed messages?</h1>
<p>You will no longer get e-mails about direct messages and mentions you have not read in ${realmName}. You can turn them on again in your notification settings.</p>
<form method="post" action="${PATH}/${params.token}">
<button class="button" type="submit">Stop these e-mails</button>
</form>
<a class="secondary" href="/">Open ${realmName}</a>`,
        ),
      );
    },
    { limit: "address", params: TokenParams, query: t.Object({}, { additionalProperties: true }) },
  )
  .post(
    `${PATH}/:token`,
    async ({ params }) => {
      const realmName = (await findOrganization())?.name ?? "Parley";
      if (!(await unsubscribeFromMissedMessageEmails(params.token))) return invalid(realmName);
      return htmlResponse(layout(`Unsubscribed · ${realmName}`, html`<h1>Done</h1><p>You will no longer get e-mails about messages you missed in ${realmName}.</p><a class="secondary" href="/">Open ${realmName}</a>`));
    },
    // Limited by address like every form: guessing tokens costs as much as guessing passwords.
    { limit: "address", params: TokenParams, body: t.Optional(t.Object({}, { additionalProperties: true })) },
  );
