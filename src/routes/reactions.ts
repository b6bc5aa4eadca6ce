import { Elysia, t } from "elysia";
import { addReaction, removeReaction } from "../actions/reactions";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

const MessageIdParams = t.Object({ message_id: t.Numeric({ multipleOf: 1 }) });
const emojiField = () => t.String({ maxLength: 200 });

export const reactionRoutes = new Elysia()
  .use(authentication)
  .post(
    "/messages/:message_id/reactions",
    async ({ user, params, body }) => {
      await addReaction(user, params.message_id, body);
      return success();
    },
    {
      auth: true,
      params: MessageIdParams,
      body: t.Object({ emoji_name: emojiField(), emoji_code: t.Optional(emojiField()), reaction_type: t.Optional(emojiField()) }),
    },
  )
  .delete(
    "/messages/:message_id/reactions",
    async ({ user, params, body }) => {
      await removeReaction(user, params.message_id, body);
      return success();
    },
    {
      auth: true,
      params: MessageIdParams,
      body: t.Object({ emoji_name: t.Optional(emojiField()), emoji_code: t.Optional(emojiField()), reaction_type: t.Optional(emojiField()) }),
    },
  );
