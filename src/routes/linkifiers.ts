import { Elysia, t } from "elysia";
import { addLinkifier, editLinkifier, reorderLinkifiers, removeLinkifier } from "../actions/linkifiers";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { listRealmLinkifiers } from "../reads/linkifiers";

const LinkifierBody = t.Object({ pattern: t.String({ maxLength: 1000 }), url_template: t.String({ maxLength: 1000 }) });
const FilterIdParams = t.Object({ filter_id: t.Numeric({ multipleOf: 1 }) });
const definition = (body: { pattern: string; url_template: string }) => ({ pattern: body.pattern, urlTemplate: body.url_template });

export const linkifierRoutes = new Elysia()
  .use(authentication)
  .get("/realm/linkifiers", async () => success({ linkifiers: await listRealmLinkifiers() }), { auth: true, query: t.Object({}) })
  .patch(
    "/realm/linkifiers",
    async ({ user, body }) => {
      await reorderLinkifiers(user, body.ordered_linkifier_ids);
      return success();
    },
    { auth: true, body: t.Object({ ordered_linkifier_ids: t.ArrayString(t.Integer(), { maxItems: 10_000 }) }) },
  )
  .post("/realm/filters", async ({ user, body }) => success({ id: await addLinkifier(user, definition(body)) }), { auth: true, body: LinkifierBody })
  .patch(
    "/realm/filters/:filter_id",
    async ({ user, params, body }) => {
      await editLinkifier(user, params.filter_id, definition(body));
      return success();
    },
    { auth: true, params: FilterIdParams, body: LinkifierBody },
  )
  .delete(
    "/realm/filters/:filter_id",
    async ({ user, params }) => {
      await removeLinkifier(user, params.filter_id);
      return success();
    },
    { auth: true, params: FilterIdParams, body: t.Object({}) },
  );
