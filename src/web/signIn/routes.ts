import { Elysia, t } from "elysia";
import { logIn } from "../../actions/login";
import { endSession } from "../../actions/sessions";
import { ApiError } from "../../http/errors";
import { clientAddress } from "../../http/rateLimit";
import { checkCsrf, checkFormOrigin, sessionTokenOf } from "../../http/session";
import { requestLimits } from "../../http/requestLimits";
import { findOrganization } from "../../reads/organization";
import { htmlResponse } from "../html";
import { homeOf, redirect, safeNext, signOutCookies, signedInUser, startBrowserSession } from "../session";
import { signInPage } from "./page";

const SignInForm = t.Object({
  username: t.Optional(t.String({ maxLength: 254 })),
  password: t.Optional(t.String({ maxLength: 1024 })),
  next: t.Optional(t.String({ maxLength: 2000 })),
});

/** What a person, rather than a program, should read when sign-in is refused. */
function signInRefusal(error: ApiError): string {
  if (error.code !== "RATE_LIMIT_HIT") return error.message;
  const minutes = Math.ceil(Number(error.extra["retry-after"]) / 60);
  return `Too many failed sign-in attempts. Try again in ${minutes === 1 ? "a minute" : `${minutes} minutes`}.`;
}

/**
 * Sign-in (a form, which scripts and tests post too) starts a browser session and sends the
 * browser on; sign-out ends it. Both work without JavaScript.
 */
export const signInRoutes = new Elysia()
  .use(requestLimits)
  .get(
    "/login",
    async ({ request, query }) => {
      const realm = await findOrganization();
      if (!realm) return redirect("/setup/");
      const user = await signedInUser(request);
      if (user) return redirect(safeNext(query.next) ?? homeOf(user));
      return htmlResponse(signInPage(realm.name, { next: safeNext(query.next) }));
    },
    { query: t.Object({ next: t.Optional(t.String({ maxLength: 2000 })) }) },
  )
  .post(
    "/login",
    async ({ body, request, server }) => {
      checkFormOrigin(request);
      const realm = await findOrganization();
      if (!realm) return redirect("/setup/");
      const email = body.username ?? "";
      const next = safeNext(body.next);
      try {
        const user = await logIn(email, body.password ?? "", clientAddress(server, request));
        return redirect(next ?? homeOf(user), await startBrowserSession(request, server, user));
      } catch (error) {
        if (error instanceof ApiError) return htmlResponse(signInPage(realm.name, { email, next, error: signInRefusal(error) }), error.status, error.headers);
        throw error;
      }
    },
    { limit: "address", body: SignInForm },
  )
  .post(
    "/logout",
    async ({ request, body }) => {
      checkFormOrigin(request);
      const token = sessionTokenOf(request);
      if (token !== undefined) {
        checkCsrf(request, token, body.csrf_token);
        await endSession(token);
      }
      return redirect("/login", signOutCookies(request));
    },
    { limit: "address", body: t.Object({ csrf_token: t.Optional(t.String({ maxLength: 200 })) }) },
  );
