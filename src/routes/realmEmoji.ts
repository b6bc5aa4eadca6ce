import { Elysia, t } from "elysia";
import { deactivateCustomEmoji, uploadRealmEmoji } from "../actions/realmEmoji";
import { authentication } from "../http/auth";
import { filesOf } from "../http/params";
import { requestLimits } from "../http/requestLimits";
import { success } from "../http/errors";
import { listCustomEmoji } from "../reads/realmEmoji";

// Longer names are refused by the action with the reference's message; this only bounds the URL part.
const EmojiNameParams = t.Object({ emoji_name: t.String({ maxLength: 1000 }) });

export const realmEmojiRoutes = new Elysia()
  .use(authentication)
  .use(requestLimits)
  .get("/realm/emoji", async () => success({ emoji: await listCustomEmoji() }), { auth: true, query: t.Object({}) })
  .post(
    "/realm/emoji/:emoji_name",
    async ({ user, params, body }) => {
      await uploadRealmEmoji(user, params.emoji_name, filesOf(body));
      return success();
    },
    { auth: true, limit: "uploads", params: EmojiNameParams },
  )
  .delete(
    "/realm/emoji/:emoji_name",
    async ({ user, params }) => {
      await deactivateCustomEmoji(user, params.emoji_name);
      return success();
    },
    { auth: true, params: EmojiNameParams, body: t.Object({}) },
  );
