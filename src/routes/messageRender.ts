import { Elysia, t } from "elysia";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { renderMessagePreview } from "../reads/messageRender";

/** POST /messages/render (reference: render-message). Lengths are checked in code points by the read. */
export const messageRenderRoutes = new Elysia()
  .use(authentication)
  .post("/messages/render", async ({ user, body }) => success({ rendered: await renderMessagePreview(user, body.content) }), {
    auth: true,
    body: t.Object({ content: t.String({ maxLength: 100_000 }) }),
  });
