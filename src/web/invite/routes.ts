import { Elysia, t } from "elysia";
import { InvitationUnusable, acceptInvitation } from "../../actions/invitesAccept";
import { ApiError } from "../../http/errors";
import { checkFormOrigin } from "../../http/session";
import { requestLimits } from "../../http/requestLimits";
import { findOrganization } from "../../reads/organization";
import { viewInvitation } from "../../reads/invites";
import { htmlResponse } from "../html";
import { homeOf, redirect, startBrowserSession } from "../session";
import { joinPage, unusableInvitationPage } from "./page";

// Optional fields, so a missing one re-renders the form with a message instead of a JSON error.
const JoinForm = t.Object({
  email: t.Optional(t.String({ maxLength: 254 })),
  full_name: t.Optional(t.String({ maxLength: 100 })),
  password: t.Optional(t.String({ maxLength: 1024 })),
});
const JoinParams = t.Object({ key: t.String({ maxLength: 64 }) });

const STATUS_OF_REASON = { unknown: 404, expired: 410, revoked: 410, used: 410 } as const;

/** The invitation link's page (GET) and its form (POST): sign up, then the signed-in page. */
export const joinRoutes = new Elysia()
  .use(requestLimits)
  .get(
    "/join/:key",
    async ({ params }) => {
      if (!await findOrganization()) return new Response(null, { status: 303, headers: { location: "/" } });
      const view = await viewInvitation(params.key);
      if (!view.usable) return htmlResponse(unusableInvitationPage(view.realmName, view.reason), STATUS_OF_REASON[view.reason]);
      return htmlResponse(joinPage({ key: params.key, realmName: view.realmName, email: view.email, inviterName: view.inviterName }));
    },
    { params: JoinParams, query: t.Object({}) },
  )
  .post(
    "/join/:key",
    async ({ params, body, request, server }) => {
      checkFormOrigin(request);
      const realm = await findOrganization();
      if (!realm) return new Response(null, { status: 303, headers: { location: "/" } });
      const values = { email: body.email ?? "", full_name: body.full_name ?? "" };
      try {
        const user = await acceptInvitation(params.key, { email: body.email, fullName: values.full_name, password: body.password ?? "" });
        // Signed in straight away, into the chat: they just chose their password.
        return redirect(homeOf(user), await startBrowserSession(request, server, user));
      } catch (error) {
        if (error instanceof InvitationUnusable) return htmlResponse(unusableInvitationPage(realm.name, error.reason), STATUS_OF_REASON[error.reason]);
        if (error instanceof ApiError) {
          const view = await viewInvitation(params.key);
          if (!view.usable) return htmlResponse(unusableInvitationPage(view.realmName, view.reason), STATUS_OF_REASON[view.reason]);
          return htmlResponse(joinPage({ key: params.key, realmName: view.realmName, email: view.email, inviterName: view.inviterName }, values, error.message), 400);
        }
        throw error;
      }
    },
    { limit: "signUps", params: JoinParams, body: JoinForm },
  );
