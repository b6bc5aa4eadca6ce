import { Elysia, t } from "elysia";
import { isAdministrator } from "../model/roles";
import { findOrganization } from "../reads/organization";
import { assetRoutes } from "./assets/routes";
import { joinRoutes } from "./invite/routes";
import { passwordResetPageRoutes } from "./passwordReset/routes";
import { unsubscribePageRoutes } from "./unsubscribe/routes";
import { redirect, signedInUser } from "./session";
import { setupRoutes } from "./setup/routes";
import { appShell } from "./shell";
import { signInRoutes } from "./signIn/routes";
import { webAppRoutes } from "./webApp/routes";

/**
 * The browser side: first-run setup until the organization exists, then sign-in, the chat at
 * `/` for everyone, the admin console for owners and administrators, and everyone's own settings. The areas are bundled
 * pages (web/client/) that call /api/v1 with the session; what they may do is the API's to say.
 */

const signInFirst = (request: Request) => redirect(`/login?next=${encodeURIComponent(new URL(request.url).pathname)}`);

const AnyPath = { query: t.Object({}, { additionalProperties: true }) };

export const webRoutes = new Elysia()
  .get(
    "/",
    async ({ request }) => {
      if (!await findOrganization()) return redirect("/setup/");
      if (!await signedInUser(request)) return redirect("/login");
      return appShell("chat", "Parley");
    },
    AnyPath,
  )
  .get(
    "/admin/*",
    async ({ request }) => {
      if (!await findOrganization()) return redirect("/setup/");
      const user = await signedInUser(request);
      if (!user) return signInFirst(request);
      // The page would be refused by every call it makes; send members where they belong.
      if (!isAdministrator(user.role)) return redirect("/settings/");
      return appShell("admin", "Administration · Parley");
    },
    AnyPath,
  )
  .get(
    "/settings/*",
    async ({ request }) => {
      if (!await findOrganization()) return redirect("/setup/");
      if (!await signedInUser(request)) return signInFirst(request);
      return appShell("settings", "Settings · Parley");
    },
    AnyPath,
  )
  .use(assetRoutes)
  .use(webAppRoutes)
  .use(setupRoutes)
  .use(signInRoutes)
  .use(joinRoutes)
  .use(passwordResetPageRoutes)
  .use(unsubscribePageRoutes);
