import { Elysia, t } from "elysia";
import { createSavedSnippet, editSavedSnippet, removeSavedSnippet } from "../actions/savedSnippets";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { listOwnSavedSnippets } from "../reads/savedSnippets";

// Generous in UTF-16 units; the action counts characters against the real limits.
const title = () => t.String({ maxLength: 1_000 });
const content = () => t.String({ maxLength: 50_000 });
const SnippetIdParams = t.Object({ saved_snippet_id: t.Numeric({ multipleOf: 1 }) });

export const savedSnippetRoutes = new Elysia()
  .use(authentication)
  .get("/saved_snippets", async ({ user }) => success({ saved_snippets: await listOwnSavedSnippets(user) }), { auth: true, query: t.Object({}) })
  .post("/saved_snippets", async ({ user, body }) => success({ saved_snippet_id: await createSavedSnippet(user, body) }), {
    auth: true,
    body: t.Object({ title: title(), content: content() }),
  })
  .patch(
    "/saved_snippets/:saved_snippet_id",
    async ({ user, params, body }) => {
      await editSavedSnippet(user, params.saved_snippet_id, body);
      return success();
    },
    { auth: true, params: SnippetIdParams, body: t.Object({ title: t.Optional(title()), content: t.Optional(content()) }) },
  )
  .delete(
    "/saved_snippets/:saved_snippet_id",
    async ({ user, params }) => {
      await removeSavedSnippet(user, params.saved_snippet_id);
      return success();
    },
    { auth: true, params: SnippetIdParams, body: t.Object({}) },
  );
