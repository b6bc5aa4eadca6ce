import { Elysia, t } from "elysia";
import { findOrganization } from "../reads/organization";
import { htmlResponse } from "./html";
import { joinRoutes } from "./invite/routes";
import { setupPage } from "./setup/page";
import { setupRoutes } from "./setup/routes";
import { signInPage } from "./signIn/page";
import { signInRoutes } from "./signIn/routes";

/**
 * The browser side of a server with no web client yet: first-run setup (web/setup/) until the
 * organization exists, then a sign-in page that hands out the API key (web/signIn/).
 */
export const webRoutes = new Elysia()
  .get(
    "/",
    () => {
      const realm = findOrganization();
      return htmlResponse(realm ? signInPage(realm.name) : setupPage());
    },
    { query: t.Object({}) },
  )
  .use(setupRoutes)
  .use(signInRoutes)
  .use(joinRoutes);
