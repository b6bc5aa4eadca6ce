import { Elysia, t } from "elysia";
import { createDrafts, editDraft, removeDraft } from "../actions/drafts";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { listOwnDrafts } from "../reads/drafts";

// Generous bounds so a huge request is a 400 at once; the actions apply the real limits.
const Draft = t.Object({
  type: t.Union([t.Literal(""), t.Literal("stream"), t.Literal("private")]),
  to: t.Array(t.Integer(), { maxItems: 1000 }),
  topic: t.String({ maxLength: 1000 }),
  content: t.String({ maxLength: 100_000 }),
  timestamp: t.Optional(t.Number()),
});

const draftId = t.Object({ draft_id: t.Numeric() });

export const draftRoutes = new Elysia()
  .use(authentication)
  .get(
    "/drafts",
    async ({ user }) => {
      const drafts = await listOwnDrafts(user);
      return success({ count: drafts.length, drafts });
    },
    { auth: true, query: t.Object({}) },
  )
  .post("/drafts", async ({ user, body }) => success({ ids: await createDrafts(user, body.drafts) }), {
    auth: true,
    body: t.Object({ drafts: t.ArrayString(Draft, { maxItems: 1000 }) }),
  })
  .patch(
    "/drafts/:draft_id",
    async ({ user, params, body }) => {
      await editDraft(user, params.draft_id, body.draft);
      return success();
    },
    { auth: true, params: draftId, body: t.Object({ draft: t.ObjectString(Draft.properties) }) },
  )
  .delete(
    "/drafts/:draft_id",
    async ({ user, params }) => {
      await removeDraft(user, params.draft_id);
      return success();
    },
    { auth: true, params: draftId, body: t.Object({}) },
  );
