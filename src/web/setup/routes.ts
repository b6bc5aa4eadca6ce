import { Elysia, t } from "elysia";
import { OrganizationExistsError, createOrganization } from "../../actions/organization";
import { ApiError } from "../../http/errors";
import { findOrganization } from "../../reads/organization";
import { htmlResponse } from "../html";
import { redirect } from "../session";
import { appShell } from "../shell";
import { retireSetupCode, setupCodeMatches } from "./code";
import { alreadySetUpPage, setupDonePage, setupPage } from "./page";

// Optional so a missing field re-renders the form with a message instead of a JSON error.
const SetupForm = t.Object({
  setup_code: t.Optional(t.String({ maxLength: 64 })),
  org_name: t.Optional(t.String({ maxLength: 100 })),
  full_name: t.Optional(t.String({ maxLength: 100 })),
  email: t.Optional(t.String({ maxLength: 254 })),
  password: t.Optional(t.String({ maxLength: 1024 })),
});

export const setupRoutes = new Elysia()
  .get("/setup/*", () => (findOrganization() ? redirect("/login") : appShell("setup", "Set up Parley")), { query: t.Object({}, { additionalProperties: true }) })
  .post(
    "/setup",
    async ({ body, request }) => {
      // Before looking at the inputs: once set up, nothing sent here may matter.
      if (findOrganization()) return htmlResponse(alreadySetUpPage(), 403);
      const values = { setup_code: body.setup_code ?? "", org_name: body.org_name ?? "", full_name: body.full_name ?? "", email: body.email ?? "" };
      if (!setupCodeMatches(values.setup_code)) {
        const problem = values.setup_code.trim() === "" ? "Enter the setup code from the server\u2019s log." : "That is not the setup code. Check the server\u2019s log: a restart prints a new one.";
        return htmlResponse(setupPage(values, problem), 403);
      }
      try {
        const owner = await createOrganization({
          name: values.org_name,
          // The address the owner reached us at is the best guess at the one everyone will use.
          url: new URL(request.url).origin,
          ownerEmail: values.email,
          ownerPassword: body.password ?? "",
          ownerFullName: values.full_name,
        });
        retireSetupCode();
        return htmlResponse(setupDonePage(values.org_name.trim(), owner.email));
      } catch (error) {
        if (error instanceof OrganizationExistsError) return htmlResponse(alreadySetUpPage(), 403);
        if (error instanceof ApiError) return htmlResponse(setupPage(values, error.message), 400);
        throw error;
      }
    },
    { body: SetupForm },
  );
