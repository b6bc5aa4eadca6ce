import { Elysia, t } from "elysia";
import { ResetLinkUnusable, completePasswordReset, requestPasswordReset, resetMailConfigured } from "../../actions/passwordResets";
import { endSession } from "../../actions/sessions";
import { ApiError } from "../../http/errors";
import { clientAddress } from "../../http/rateLimit";
import { checkFormOrigin, sessionTokenOf } from "../../http/session";
import { requestLimits } from "../../http/requestLimits";
import { findOrganization } from "../../reads/organization";
import { viewPasswordReset } from "../../reads/passwordResets";
import { htmlResponse } from "../html";
import { redirect, startBrowserSession } from "../session";
import { forgotPage, forgotSentPage, resetPage, unusableResetPage } from "./page";

const STATUS_OF_REASON = { unknown: 404, used: 410, expired: 410, unavailable: 410 } as const;

const TokenParams = t.Object({ token: t.String({ maxLength: 64 }) });
// Optional fields, so a missing one re-renders the form with a message instead of a JSON error.
const ResetForm = t.Object({
  password: t.Optional(t.String({ maxLength: 1024 })),
  password_confirmation: t.Optional(t.String({ maxLength: 1024 })),
});

const beforeSetup = () => redirect("/");

function tooManyRequests(error: ApiError): string {
  const minutes = Math.ceil(Number(error.extra["retry-after"]) / 60);
  return `Too many reset requests. Try again in ${minutes === 1 ? "a minute" : `${minutes} minutes`}.`;
}

/**
 * "Forgot your password?" (ask for a link by e-mail) and the page a reset link opens (choose
 * the new password, then signed in). Both are plain forms that work without JavaScript.
 */
export const passwordResetPageRoutes = new Elysia()
  .use(requestLimits)
  .get(
    "/password/forgot",
    async () => {
      const realm = await findOrganization();
      if (!realm) return beforeSetup();
      return htmlResponse(forgotPage(realm.name, { mailAvailable: await resetMailConfigured() }));
    },
    { query: t.Object({}, { additionalProperties: true }) },
  )
  .post(
    "/password/forgot",
    async ({ body, request, server }) => {
      checkFormOrigin(request);
      const realm = await findOrganization();
      if (!realm) return beforeSetup();
      const email = (body.email ?? "").trim();
      if (!await resetMailConfigured()) return htmlResponse(forgotPage(realm.name, { mailAvailable: false }));
      if (email === "") return htmlResponse(forgotPage(realm.name, { mailAvailable: true, error: "Enter your e-mail address." }), 400);
      try {
        await requestPasswordReset(email, clientAddress(server, request));
      } catch (error) {
        if (error instanceof ApiError && error.code === "RATE_LIMIT_HIT") {
          return htmlResponse(forgotPage(realm.name, { mailAvailable: true, email, error: tooManyRequests(error) }), error.status, error.headers);
        }
        throw error;
      }
      return htmlResponse(forgotSentPage(realm.name, email));
    },
    { limit: "address", body: t.Object({ email: t.Optional(t.String({ maxLength: 254 })) }) },
  )
  .get(
    "/reset/:token",
    async ({ params }) => {
      if (!await findOrganization()) return beforeSetup();
      const view = await viewPasswordReset(params.token);
      if (!view.usable) return htmlResponse(unusableResetPage(view.realmName, view.reason), STATUS_OF_REASON[view.reason]);
      return htmlResponse(resetPage({ token: params.token, realmName: view.realmName, email: view.email }));
    },
    { params: TokenParams, query: t.Object({}) },
  )
  .post(
    "/reset/:token",
    async ({ params, body, request, server }) => {
      checkFormOrigin(request);
      if (!await findOrganization()) return beforeSetup();
      const view = await viewPasswordReset(params.token);
      if (!view.usable) return htmlResponse(unusableResetPage(view.realmName, view.reason), STATUS_OF_REASON[view.reason]);
      const context = { token: params.token, realmName: view.realmName, email: view.email };
      const password = body.password ?? "";
      if (password !== (body.password_confirmation ?? "")) return htmlResponse(resetPage(context, "The two passwords differ: type the same one twice."), 400);
      try {
        const user = await completePasswordReset(params.token, password);
        // Whoever this browser was signed in as before, it is now this person.
        const previous = sessionTokenOf(request);
        if (previous !== undefined) await endSession(previous);
        return redirect("/", await startBrowserSession(request, server, user));
      } catch (error) {
        if (error instanceof ResetLinkUnusable) return htmlResponse(unusableResetPage(view.realmName, error.reason), STATUS_OF_REASON[error.reason]);
        if (error instanceof ApiError) return htmlResponse(resetPage(context, error.message), error.status);
        throw error;
      }
    },
    { limit: "address", params: TokenParams, body: ResetForm },
  );
