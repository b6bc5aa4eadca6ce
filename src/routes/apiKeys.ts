import { Elysia, t } from "elysia";
import { regenerateOwnApiKey } from "../actions/apiKeys";
import { regenerateBotApiKey } from "../actions/bots";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

/** Replacing API keys: the old key is refused from the moment the new one is answered. */
export const apiKeyRoutes = new Elysia()
  .use(authentication)
  // A bot's key, by its owner or an administrator (the original's web app calls this; not in its API description).
  .post("/bots/:bot_id/api_key/regenerate", async ({ user, params }) => success(await regenerateBotApiKey(user, params.bot_id)), {
    auth: true,
    params: t.Object({ bot_id: t.Numeric({ multipleOf: 1 }) }),
    body: t.Object({}),
  })
  // The caller's own key (the original's web app calls this from its settings; not in its API description).
  .post("/users/me/api_key/regenerate", async ({ user }) => success(await regenerateOwnApiKey(user)), { auth: true, body: t.Object({}) });
