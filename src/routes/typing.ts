import { Elysia, t } from "elysia";
import { setEditTypingStatus, setTypingStatus } from "../actions/typing";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

const Op = t.Union([t.Literal("start"), t.Literal("stop")]);

export const typingRoutes = new Elysia()
  .use(authentication)
  .post(
    "/typing",
    async ({ user, body }) => {
      await setTypingStatus(user, body);
      return success();
    },
    {
      auth: true,
      body: t.Object({
        // "private" is no longer accepted (feature level 215), so it fails validation.
        type: t.Optional(t.Union([t.Literal("direct"), t.Literal("stream"), t.Literal("channel")])),
        op: Op,
        to: t.Optional(t.ArrayString(t.Integer(), { maxItems: 1_000 })),
        stream_id: t.Optional(t.Numeric({ multipleOf: 1 })),
        topic: t.Optional(t.String({ maxLength: 1_000 })),
      }),
    },
  )
  .post(
    "/messages/:message_id/typing",
    async ({ user, params, body }) => {
      await setEditTypingStatus(user, params.message_id, body.op);
      return success();
    },
    { auth: true, params: t.Object({ message_id: t.Numeric({ multipleOf: 1 }) }), body: t.Object({ op: Op }) },
  );
