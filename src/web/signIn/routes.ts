import { Elysia, t } from "elysia";
import { logIn } from "../../actions/login";
import { ApiError } from "../../http/errors";
import { clientAddress } from "../../http/rateLimit";
import { findOrganization } from "../../reads/organization";
import { htmlResponse } from "../html";
import { signInPage, signedInPage } from "./page";

const SignInForm = t.Object({
  username: t.Optional(t.String({ maxLength: 254 })),
  password: t.Optional(t.String({ maxLength: 1024 })),
});

/** What a person, rather than a program, should read when sign-in is refused. */
function signInRefusal(error: ApiError): string {
  if (error.code !== "RATE_LIMIT_HIT") return error.message;
  const minutes = Math.ceil(Number(error.extra["retry-after"]) / 60);
  return `Too many failed sign-in attempts. Try again in ${minutes === 1 ? "a minute" : `${minutes} minutes`}.`;
}

export const signInRoutes = new Elysia()
  .post(
    "/login",
    async ({ body, request, server }) => {
      const realm = findOrganization();
      if (!realm) return new Response(null, { status: 303, headers: { location: "/" } });
      const email = body.username ?? "";
      try {
        const user = await logIn(email, body.password ?? "", clientAddress(server, request));
        return htmlResponse(signedInPage({ fullName: user.fullName, email: user.email, apiKey: user.apiKey, realmUrl: realm.url }));
      } catch (error) {
        if (error instanceof ApiError) return htmlResponse(signInPage(realm.name, email, signInRefusal(error)), error.status, error.headers);
        throw error;
      }
    },
    { body: SignInForm },
  );
