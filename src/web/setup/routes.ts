import { Elysia, t } from "elysia";
import { OrganizationExistsError, createOrganization } from "../../actions/organization";
import { requestOrigin } from "../../http/clientAddress";
import { ApiError, badRequest, success } from "../../http/errors";
import { checkFormOrigin } from "../../http/session";
import { requestLimits } from "../../http/requestLimits";
import { findOrganization } from "../../reads/organization";
import { htmlResponse } from "../html";
import { redirect, startBrowserSession } from "../session";
import { appShell } from "../shell";
import { retireSetupCode, setupCodeMatches } from "./code";
import { alreadySetUpPage, setupDonePage, setupPage } from "./page";

/**
 * First-run setup. GET /setup/ is the wizard (web/client/setup/); it checks the code with
 * POST /setup/code and creates the organization with POST /setup asking for JSON, which signs
 * the new owner in. POST /setup stays a plain form for scripts: HTML in, HTML out.
 */

// Optional so a missing field re-renders the form with a message instead of a JSON error.
const SetupForm = t.Object({
  setup_code: t.Optional(t.String({ maxLength: 64 })),
  org_name: t.Optional(t.String({ maxLength: 100 })),
  org_url: t.Optional(t.String({ maxLength: 2000 })),
  full_name: t.Optional(t.String({ maxLength: 100 })),
  email: t.Optional(t.String({ maxLength: 254 })),
  password: t.Optional(t.String({ maxLength: 1024 })),
});

const ALREADY_SET_UP = "This server already has an organization; it cannot be set up again.";

const wantsJson = (request: Request) => (request.headers.get("accept") ?? "").includes("application/json");

function codeProblem(typed: string): string | undefined {
  if (setupCodeMatches(typed)) return undefined;
  return typed.trim() === "" ? "Enter the setup code from the server\u2019s log." : "That is not the setup code. Check the server\u2019s log: a restart prints a new one.";
}

const refused = (message: string) => new ApiError("BAD_REQUEST", message, {}, { status: 403 });

/**
 * The address everyone will open: an http(s) origin, nothing after it. None given: the one the
 * request came to, the best guess a form has (the wizard sends what the browser shows).
 */
function organizationUrl(raw: string | undefined, request: Request): string {
  const text = raw?.trim() ?? "";
  if (text === "") return requestOrigin(request);
  const problem = `'${text}' is not a valid organization URL: use the address people will open, such as https://chat.example.com.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(problem);
  }
  if (!["http:", "https:"].includes(url.protocol) || url.username || url.password || url.search || url.hash || url.pathname !== "/") throw badRequest(problem);
  return url.origin;
}

function jsonWithCookies(body: object, cookies: string[]): Response {
  const headers = new Headers({ "content-type": "application/json", "cache-control": "no-store" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(JSON.stringify(body), { headers });
}

const AnyQuery = { query: t.Object({}, { additionalProperties: true }) };

/** Once the organization exists the wizard is gone for good: strangers land on sign-in. */
const wizardPage = async () => (await findOrganization() ? redirect("/") : appShell("setup", "Set up Parley"));

export const setupRoutes = new Elysia()
  .use(requestLimits)
  // Elysia routes /setup and /setup/ alike: the bare one is sent on, so relative URLs resolve under it.
  .get("/setup", async ({ request }) => (new URL(request.url).pathname === "/setup" && !await findOrganization() ? redirect("/setup/") : wizardPage()), AnyQuery)
  .get("/setup/*", wizardPage, AnyQuery)
  .post(
    "/setup/code",
    async ({ body, request }) => {
      checkFormOrigin(request);
      if (await findOrganization()) throw refused(ALREADY_SET_UP);
      const problem = codeProblem(body.setup_code ?? "");
      if (problem) throw refused(problem);
      return success();
    },
    { limit: "address", body: t.Object({ setup_code: t.Optional(t.String({ maxLength: 64 })) }) },
  )
  .post(
    "/setup",
    async ({ body, request, server }) => {
      checkFormOrigin(request);
      const json = wantsJson(request);
      // Before looking at the inputs: once set up, nothing sent here may matter.
      if (await findOrganization()) {
        if (json) throw refused(ALREADY_SET_UP);
        return htmlResponse(alreadySetUpPage(), 403);
      }
      const values = { setup_code: body.setup_code ?? "", org_name: body.org_name ?? "", org_url: body.org_url || requestOrigin(request), full_name: body.full_name ?? "", email: body.email ?? "" };
      const problem = codeProblem(values.setup_code);
      if (problem) {
        if (json) throw refused(problem);
        return htmlResponse(setupPage(values, problem), 403);
      }
      try {
        const owner = await createOrganization({
          name: values.org_name,
          url: organizationUrl(values.org_url, request),
          ownerEmail: values.email,
          ownerPassword: body.password ?? "",
          ownerFullName: values.full_name,
        });
        retireSetupCode();
        if (json) return jsonWithCookies(success({ user_id: owner.id, email: owner.email, realm_url: (await findOrganization())?.url }), await startBrowserSession(request, server, owner));
        return htmlResponse(setupDonePage(values.org_name.trim(), owner.email));
      } catch (error) {
        if (error instanceof OrganizationExistsError) {
          if (json) throw refused(ALREADY_SET_UP);
          return htmlResponse(alreadySetUpPage(), 403);
        }
        if (error instanceof ApiError && !json) return htmlResponse(setupPage(values, error.message), 400);
        throw error;
      }
    },
    { limit: "signUps", body: SetupForm },
  );
