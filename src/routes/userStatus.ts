import { Elysia, t } from "elysia";
import { updateOwnStatus } from "../actions/userStatus";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { getUserStatus } from "../reads/userStatus";

// Generous in UTF-16 units: the action counts the text's characters against the limit of 60.
const emojiField = () => t.String({ maxLength: 200 });

export const userStatusRoutes = new Elysia()
  .use(authentication)
  .post(
    "/users/me/status",
    async ({ user, body }) => {
      await updateOwnStatus(user, body);
      return success();
    },
    {
      auth: true,
      body: t.Object({
        status_text: t.Optional(t.String({ maxLength: 1_000 })),
        emoji_name: t.Optional(emojiField()),
        emoji_code: t.Optional(emojiField()),
        reaction_type: t.Optional(emojiField()),
        away: t.Optional(t.BooleanString()),
      }),
    },
  )
  .get("/users/:user_id/status", async ({ user, params }) => success({ status: await getUserStatus(user, params.user_id) }), {
    auth: true,
    params: t.Object({ user_id: t.Numeric({ multipleOf: 1 }) }),
    query: t.Object({}),
  });
